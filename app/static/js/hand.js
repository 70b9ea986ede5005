// Your hand: one button per card, in the server's order (by suit, trump first once known).
//
// Only the cards the view's `legal` allows are enabled and raised; the client decides
// nothing.  In the discard the cards are toggle buttons (aria-pressed); at the first lead
// a click picks the card and the call panel (controls.js) finishes the action.

import { cardButton } from "./cards.js";
import { rove } from "./roving.js";

/** The card a hint points at, if any (practice rooms). */
function hintedCards(view) {
  const hint = view.hint;
  if (!hint) return new Set();
  if (typeof hint.play === "string") return new Set([hint.play]);
  if (Array.isArray(hint.discard)) return new Set(hint.discard);
  return new Set();
}

function legalPlays(view) {
  const plays = new Set();
  for (const action of view.legal) if (typeof action.play === "string") plays.add(action.play);
  return plays;
}

export function discardCount(view) {
  const entry = view.legal.find((a) => typeof a.discard === "number");
  return entry ? entry.discard : 0;
}

export function renderHand(view, ui) {
  const hand = document.getElementById("hand");
  const area = document.getElementById("hand-area");
  area.hidden = view.you === null || view.you === undefined || !view.hand.length;
  if (area.hidden) {
    hand.replaceChildren();
    return;
  }
  const plays = legalPlays(view);
  const discarding = discardCount(view) > 0;
  const leading = view.phase === "lead" && plays.size > 0;
  const hinted = hintedCards(view);
  const kitty = new Set(view.kitty && view.contract && view.contract.bidder === view.you ? view.kitty : []);
  const buttons = view.hand.map((id) => {
    let action = "play";
    if (discarding) action = "toggle-discard";
    else if (leading) action = "lead-card";
    const button = cardButton(id, action);
    button.dataset.key = `card:${id}`;
    if (discarding) {
      button.setAttribute("aria-pressed", ui.discard.has(id) ? "true" : "false");
      if (kitty.has(id) && view.phase === "discard") button.classList.add("from-kitty");
    } else {
      // aria-disabled, not disabled: the cards stay focusable, so keyboard focus can stay
      // in the hand between turns; the click handler ignores aria-disabled buttons.
      const enabled = plays.has(id);
      button.setAttribute("aria-disabled", enabled ? "false" : "true");
      if (enabled) button.classList.add("playable");
      if (leading) button.setAttribute("aria-pressed", ui.leadCard === id ? "true" : "false");
    }
    // Arrow keys move across the cards that can be used now (every card in the discard).
    if (discarding || plays.has(id)) button.dataset.rove = "";
    if (hinted.has(id)) button.classList.add("hinted");
    return button;
  });
  // Dim the cards that cannot be played only while some can: a hand is not grey between turns.
  hand.classList.toggle("choosing", plays.size > 0);
  hand.replaceChildren(...buttons);
  // The hand is one Tab stop (roving tabindex).
  rove(hand, buttons);
}
