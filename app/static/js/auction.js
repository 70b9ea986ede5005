// @ts-check
// The auction: Pass, one button per number of the bid range (only the legal ones
// enabled), Amerikaner when the rules have it.  The auction's history is in the deal log.
//
// Amerikaner sits next to the highest number but promises every trick alone, for the
// rules' `amerikaner_points` either way: one slip of the finger must not bid it.  Its
// button only asks (`ask-amerikaner`): it says what the bid is and shows, below the bids,
// the question with `Yes, bid Amerikaner` and `No, back to the bids` (Escape too).  The
// question is below the row, not in the button's place, so that a double click or a
// double tap on Amerikaner asks and takes the question back; the focus goes to `No`.

import { formatNumber, t } from "./i18n.js";
import { rove } from "./roving.js";
import { el } from "./dom.js";
import { Phase } from "./protocol.js";

/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./payloads.js").Action} Action */

/** The ids of the Amerikaner bid's description and of its question. */
export const AMERIKANER_ABOUT = "amerikaner-about";
export const AMERIKANER_CONFIRM = "amerikaner-confirm";

/**
 * @param {string} text
 * @param {string} action
 * @param {Record<string, string>} data
 * @param {boolean} enabled */
function button(text, action, data, enabled) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.dataset.action = action;
  Object.assign(b.dataset, data);
  b.dataset.key = `${action}:${data.bid ?? ""}`;
  b.disabled = !enabled;
  if (enabled) b.dataset.rove = "";
  return b;
}

/** What the Amerikaner bid is, in the rules' figures: every trick alone, for its points.
 * @param {View} view */
export function amerikanerAbout(view) {
  const rules = view.room.rules_resolved || {};
  const points = typeof rules.amerikaner_points === "number" ? rules.amerikaner_points : 52;
  const tricks = typeof rules.hand_size === "number" ? rules.hand_size : view.hand.length;
  return t("auction.amerikaner_about", { hand_size: formatNumber(tricks), points: formatNumber(points) });
}

/** The bid buttons for the seat to act (an element), or null when it is not our turn;
 *  `hint` (practice) is outlined; `asking`: the Amerikaner question is open.
 * @param {View} view
 * @param {Action | null} hint
 * @param {boolean} [asking] */
export function auctionControls(view, hint, asking = false) {
  const legal = new Set(view.legal.filter((a) => "bid" in a).map((a) => String(a.bid)));
  if (view.phase !== Phase.AUCTION || !legal.size) return null;
  const rules = view.room.rules_resolved || {};
  const box = document.createElement("div");
  box.className = "bids";
  box.id = "bids";
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", t("auction.your_bid"));
  box.append(button(t("bid.pass"), "bid", { bid: "pass" }, legal.has("pass")));
  const numbers = view.legal.map((a) => a.bid).filter((bid) => typeof bid === "number");
  const low = typeof rules.min_bid === "number" ? rules.min_bid : Math.min(...numbers);
  const high = typeof rules.max_bid === "number" ? rules.max_bid : Math.max(...numbers);
  for (let n = low; n <= high; n++) {
    box.append(button(t("bid.number", { n }), "bid", { bid: String(n) }, legal.has(String(n))));
  }
  if (rules.amerikaner !== false || legal.has("amerikaner")) {
    const enabled = legal.has("amerikaner");
    const b = button(t("bid.amerikaner"), "ask-amerikaner", { bid: "amerikaner" }, enabled);
    if (enabled) {
      // the button asks: a screen reader hears what the bid is, and that it opens a question
      b.setAttribute("aria-describedby", AMERIKANER_ABOUT);
      b.setAttribute("aria-expanded", String(asking));
      b.setAttribute("aria-controls", AMERIKANER_CONFIRM);
      const about = el("span", "sr-only", amerikanerAbout(view));
      about.id = AMERIKANER_ABOUT;
      box.append(b, about);
    } else {
      box.append(b);
    }
  }
  // Practice: the best bot's choice gets the same dashed outline as a hinted card.
  if (hint && "bid" in hint) {
    const hinted = box.querySelector(`[data-bid="${String(hint.bid)}"]`);
    if (hinted) hinted.classList.add("hinted");
  }
  // The bids are one Tab stop; the arrow keys move across the legal ones.
  rove(box, [...box.querySelectorAll("button")]);
  return box;
}

/** The Amerikaner question under the bids, or null while it is not asked (or the bid is
 *  no longer legal: the turn moved on).
 * @param {View} view
 * @param {boolean} asking */
export function amerikanerQuestion(view, asking) {
  if (!asking || view.phase !== Phase.AUCTION || !view.legal.some((a) => a.bid === "amerikaner")) return null;
  const box = el("div", "bid-confirm");
  box.id = AMERIKANER_CONFIRM;
  box.setAttribute("role", "group");
  const title = el("p", "prompt");
  title.id = `${AMERIKANER_CONFIRM}-title`;
  title.append(el("strong", "", t("auction.amerikaner_question")), " ", amerikanerAbout(view));
  box.setAttribute("aria-labelledby", title.id);
  const yes = el("button", "primary", t("auction.amerikaner_yes"));
  yes.type = "button";
  yes.dataset.action = "bid";
  yes.dataset.bid = "amerikaner";
  yes.dataset.key = "confirm-amerikaner";
  const no = el("button", "", t("auction.amerikaner_no"));
  no.type = "button";
  no.dataset.action = "cancel-amerikaner";
  no.dataset.key = "cancel-amerikaner";
  const row = el("div", "bid-confirm-buttons");
  row.append(yes, no);
  box.append(title, row);
  return box;
}

/** The actions of the bids and the Amerikaner question: a click that is the second of a
 *  double click does nothing on them (roomclicks.js's click listener). */
export const DOUBLE_CLICK_SAFE = new Set(["bid", "ask-amerikaner", "cancel-amerikaner"]);

/** Move the focus to the control of the room's controls whose `data-key` is `key`.
 * @param {string} key */
function focusControl(key) {
  const control = document.querySelector(`#controls [data-key="${key}"]`);
  if (control instanceof HTMLElement) control.focus();
}

/** The Amerikaner question's click handlers for the room's one click listener, and
 *  Escape, which takes the question back wherever the focus is on the page.  A press on
 *  Amerikaner asks (the focus goes to `No`) or takes the question back; `No` takes it
 *  back (the focus returns to Amerikaner).  Called once, by the room page.
 * @param {import("./uistate.js").UiState} ui
 * @param {() => void} render
 * @returns {Record<string, (b: HTMLElement) => void>} */
export function amerikanerQuestionClicks(ui, render) {
  const cancel = () => {
    ui.askingAmerikaner = false;
    render();
    focusControl("ask-amerikaner:amerikaner");
  };
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && ui.askingAmerikaner) {
      event.preventDefault();
      cancel();
    }
  });
  return {
    "ask-amerikaner": () => {
      ui.askingAmerikaner = !ui.askingAmerikaner;
      render();
      focusControl(ui.askingAmerikaner ? "cancel-amerikaner" : "ask-amerikaner:amerikaner");
    },
    "cancel-amerikaner": cancel,
  };
}
