// Your hand: one button per card, in the server's order (by suit, trump first once known).
//
// Only the cards the view's `legal` allows are enabled and raised; the client decides
// nothing.  In the discard the cards are toggle buttons (aria-pressed); at the first lead
// a click picks the card and the call panel (controls.js) finishes the action.

import { cardButton } from "./cards.js";

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
    if (hinted.has(id)) button.classList.add("hinted");
    return button;
  });
  // Dim the cards that cannot be played only while some can: a hand is not grey between turns.
  hand.classList.toggle("choosing", plays.size > 0);
  hand.replaceChildren(...buttons);
}

/** Arrow keys move between the enabled cards (Tab still works everywhere). */
export function setUpHandKeys() {
  const hand = document.getElementById("hand");
  hand.addEventListener("keydown", (event) => {
    if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
    const cards = [...hand.querySelectorAll("button")];
    if (!cards.length) return;
    const index = cards.indexOf(document.activeElement);
    let next = 0;
    if (event.key === "ArrowLeft") next = index <= 0 ? cards.length - 1 : index - 1;
    else if (event.key === "ArrowRight") next = index < 0 || index === cards.length - 1 ? 0 : index + 1;
    else if (event.key === "End") next = cards.length - 1;
    cards[next].focus();
    event.preventDefault();
  });
}
