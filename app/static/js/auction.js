// @ts-check
// The auction: Pass, one button per number of the bid range (only the legal ones
// enabled), Amerikaner when the rules have it.  The auction's history is in the deal log.

import { t } from "./i18n.js";
import { rove } from "./roving.js";
import { Phase } from "./protocol.js";

/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./payloads.js").Action} Action */

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

/** The bid buttons for the seat to act (an element), or null when it is not our turn;
 *  `hint` (practice) is outlined.
 * @param {View} view
 * @param {Action | null} hint */
export function auctionControls(view, hint) {
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
    box.append(button(t("bid.amerikaner"), "bid", { bid: "amerikaner" }, legal.has("amerikaner")));
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
