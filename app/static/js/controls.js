// @ts-check
// The panel under the table: what you can do now (bid, discard, lead and call) and the
// practice hint.  Every control carries data-action for the room's one click listener.

import { amerikanerQuestion, auctionControls } from "./auction.js";
import { cardChip } from "./cards.js";
import { cardInSentence, t, tn } from "./i18n.js";
import { bidText, seatName } from "./table.js";
import { discardCount } from "./hand.js";
import { byId, drawUnlessSame, el } from "./dom.js";
import { rove } from "./roving.js";
import { hintReason } from "./review.js";
import { CountdownKind, Phase } from "./protocol.js";

/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./uistate.js").UiState} UiState */
/** @typedef {import("./payloads.js").Action} Action */

/**
 * @param {string} text
 * @param {string} action
 * @param {Record<string, string>} [data]
 * @param {boolean} [enabled]
 * @param {boolean} [primary] */
function actionButton(text, action, data = {}, enabled = true, primary = false) {
  const b = el("button", primary ? "primary" : "", text);
  b.type = "button";
  b.dataset.action = action;
  Object.assign(b.dataset, data);
  b.dataset.key = `${action}:${Object.values(data).join(",")}`;
  b.disabled = !enabled;
  return b;
}

/**
 * @param {View} view
 * @param {UiState} ui */
function discardPanel(view, ui) {
  const k = discardCount(view);
  const box = el("div", "discard-panel");
  box.append(el("p", "prompt", tn("discard.prompt", k, { k })));
  box.append(el("p", "", tn("discard.chosen", ui.discard.size, { n: ui.discard.size, k })));
  box.append(actionButton(t("discard.button"), "discard", {}, ui.discard.size === k, true));
  return box;
}

const RANKS = "23456789TJQKA";

/** The call the keyboard starts at for the first lead of `card`: the practice hint's call
 *  when it leads this card, else the highest card of the suit that the player can call,
 *  which is the hint's own rule ("the highest trump you miss", app/bots/hints.py): the
 *  calls `legal` offers are the cards of the suit in other hands.  Null: no call.
 * @param {Action[]} legal the view's legal actions
 * @param {string} card the card led
 * @param {boolean} grand the grand box is ticked
 * @param {Action | null} hint
 * @returns {string | null} */
export function firstCall(legal, card, grand, hint) {
  const calls = legal.filter((a) => a.play === card && Boolean(a.grand) === grand && a.call)
    .map((a) => /** @type {string} */ (a.call));
  if (hint && hint.play === card && hint.call && calls.includes(hint.call)) return hint.call;
  /** @param {string} id */
  const rank = (id) => RANKS.indexOf(id.charAt(0));
  return calls.reduce((best, id) => (best === null || rank(id) > rank(best) ? id : best), /** @type {string | null} */ (null));
}

/**
 * @param {View} view
 * @param {UiState} ui */
function leadPanel(view, ui) {
  const box = el("div", "lead-panel");
  const leads = view.legal.filter((a) => typeof a.play === "string");
  const card = ui.leadCard && leads.some((a) => a.play === ui.leadCard) ? ui.leadCard : null;
  if (!card) {
    box.append(el("p", "prompt", t("lead.prompt")));
    return box;
  }
  const forCard = leads.filter((a) => a.play === card);
  const grandAllowed = forCard.some((a) => a.grand);
  const grand = grandAllowed && ui.grand;
  const prompt = el("p", "prompt");
  // The explanation is for newcomers on a wide screen; a phone keeps its height for cards.
  prompt.append(t("lead.chosen"), " ", cardChip(card), ". ", el("span", "explain", t("lead.call_prompt")));
  box.append(prompt);
  if (grandAllowed) {
    const label = el("label", "inline-check");
    const check = document.createElement("input");
    check.type = "checkbox";
    check.checked = grand;
    check.dataset.change = "grand";
    check.dataset.key = "grand";
    label.append(check, el("span", "", t("lead.grand")));
    box.append(label, el("p", "hint", t("lead.grand_hint")));
  }
  const calls = el("div", "calls");
  calls.setAttribute("role", "group");
  calls.setAttribute("aria-label", t("lead.calls"));
  const seen = new Set();
  for (const action of forCard) {
    if (Boolean(action.grand) !== grand) continue;
    if (action.call) {
      if (seen.has(action.call)) continue;
      seen.add(action.call);
      const b = callButton(card, action.call);
      if (ui.hint && ui.hint.play === card && ui.hint.call === action.call) b.classList.add("hinted");
      calls.append(b);
    } else {
      calls.append(actionButton(t("lead.alone"), "lead", { card, call: "" }));
    }
  }
  // The calls are one Tab stop too, at first the call the hint would make; the arrow
  // keys move across them.
  calls.id = "calls";
  const buttons = [...calls.querySelectorAll("button")];
  for (const b of buttons) b.dataset.rove = "";
  const start = firstCall(view.legal, card, grand, ui.hint);
  rove(calls, buttons, buttons.find((b) => start !== null && b.dataset.call === start) ?? null);
  box.append(calls);
  return box;
}

/** A compact call button: the rank and suit for the eye ("A♥"), "Call Ace of hearts"
 *  for its name; the led card already chose the suit.
 * @param {string} card
 * @param {string} call */
function callButton(card, call) {
  const b = actionButton("", "lead", { card, call });
  b.classList.add("call-button");
  const name = el("span", "sr-only", t("lead.call", { card: cardInSentence(call) }));
  const face = cardChip(call);
  face.querySelector(".sr-only")?.remove();
  b.append(name, face);
  return b;
}

/** The practice hint in words: its reason, or what the strong bot would do.
 * @param {UiState} ui */
function hintText(ui) {
  const hint = ui.hint;
  if (!hint) return null;
  const reason = hintReason(ui.hintReason);
  if (reason) return reason;
  if (hint.bid !== undefined) return t("hint.bid", { bid: bidText(hint.bid) });
  if (Array.isArray(hint.discard)) return t("hint.discard", { cards: hint.discard.map(cardInSentence).join(", ") });
  if (hint.call && hint.play) return t("hint.lead_call", { card: cardInSentence(hint.play), call: cardInSentence(hint.call) });
  if (hint.play) return t("hint.play", { card: cardInSentence(hint.play) });
  return null;
}

// What the seat to act is doing, by phase (status.you_bid, status.other_bid...).
/** @type {Record<string, string>} */
const TURN_WORDS = { [Phase.AUCTION]: "bid", [Phase.DISCARD]: "discard", [Phase.LEAD]: "lead", [Phase.PLAY]: "play" };

/** The one-line status: whose turn it is and what they are doing, or whom the table
 *  waits for (the seconds left are `turnClock`'s).
 * @param {View} view */
export function turnText(view) {
  const phase = view.phase;
  const room = view.room;
  if (phase !== Phase.LOBBY && (view.you === null || view.you === undefined)
      && room.your_seat !== null && room.your_seat !== undefined) return t("status.joining");
  if (phase === Phase.LOBBY) return view.room.you_are_host ? t("status.lobby_host") : t("status.lobby");
  if (phase === Phase.DEAL_OVER) return t("status.deal_over");
  if (phase === Phase.MATCH_OVER) return t("status.match_over");
  if (view.turn === null || view.turn === undefined) return "";
  const clock = room.clock;
  if (clock && clock.kind === CountdownKind.GRACE && clock.seat === view.turn) {
    return t("status.waiting_for", { name: seatName(view, view.turn) });
  }
  const mine = view.turn === view.you;
  const key = TURN_WORDS[phase] || "play";
  if (mine) return t(`status.you_${key}`);
  return t(`status.other_${key}`, { name: seatName(view, view.turn) });
}

/** The deadline the status line counts down to (epoch seconds), or null: the turn's
 *  clock, a dropped person's grace or a connected person's turn time.
 * @param {View} view */
export function turnClock(view) {
  const clock = view.room.clock;
  return clock && clock.seat === view.turn ? clock.until : null;
}

/**
 * @param {View} view
 * @param {UiState} ui */
export function renderControls(view, ui) {
  const box = byId("controls");
  const parts = [];
  const mine = view.you !== null && view.turn === view.you;
  if (mine && view.phase === Phase.AUCTION) {
    const bids = auctionControls(view, ui.hint, ui.askingAmerikaner);
    if (bids) parts.push(bids);
    const question = amerikanerQuestion(view, ui.askingAmerikaner);
    if (question) parts.push(question);
  } else if (mine && view.phase === Phase.DISCARD && discardCount(view)) {
    parts.push(discardPanel(view, ui));
  } else if (mine && view.phase === Phase.LEAD) {
    parts.push(leadPanel(view, ui));
  }
  const hint = mine ? hintText(ui) : null;
  if (hint) {
    const p = el("p", "hint-box", hint);
    parts.push(p);
  }
  drawUnlessSame(box, parts);
}
