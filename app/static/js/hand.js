// @ts-check
// Your hand: one button per card, in the server's order (by suit, trump first once known).
//
// Only the cards the view's `legal` allows are enabled and raised; the client decides
// nothing.  In the discard the cards are toggle buttons (aria-pressed); at the first lead
// a click picks the card and the call panel (controls.js) finishes the action.

import { cardButton } from "./cards.js";
import { rove } from "./roving.js";
import { Phase } from "./protocol.js";
import { byId } from "./dom.js";
import { currentLanguage } from "./i18n.js";

/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./payloads.js").Action} Action */
/** @typedef {import("./uistate.js").UiState} UiState */

/** The cards a hint points at, if any (practice rooms).
 * @param {Action | null} hint
 * @returns {Set<string>} */
function hintedCards(hint) {
  if (!hint) return new Set();
  if (typeof hint.play === "string") return new Set([hint.play]);
  if (Array.isArray(hint.discard)) return new Set(hint.discard);
  return new Set();
}

/** @param {View} view */
function legalPlays(view) {
  /** @type {Set<string>} */
  const plays = new Set();
  for (const action of view.legal) if (typeof action.play === "string") plays.add(action.play);
  return plays;
}

/** How many cards this seat must discard now (0: not discarding).
 * @param {View} view */
export function discardCount(view) {
  for (const action of view.legal) if (typeof action.discard === "number") return action.discard;
  return 0;
}

/** A card button for the hand, marked with its key and the language its name is in.
 * @param {string} id */
function newCardButton(id) {
  const button = cardButton(id, "play");
  button.dataset.key = `card:${id}`;
  button.dataset.lang = currentLanguage();
  return button;
}

/** The hand's buttons that a render may keep, by card.  A render updates these in place
 * rather than drawing new ones: Chromium fires no click when the button pressed is
 * replaced before the release, so a redraw between a finger's press and its lift (a frame
 * comes with every bot move) would lose the tap.  A button named in another language is
 * drawn anew.
 * @param {HTMLElement} hand
 * @returns {Map<string, HTMLButtonElement>} */
function keptButtons(hand) {
  /** @type {Map<string, HTMLButtonElement>} */
  const kept = new Map();
  const language = currentLanguage();
  for (const child of hand.children) {
    if (child instanceof HTMLButtonElement && child.dataset.card && child.dataset.lang === language) {
      kept.set(child.dataset.card, child);
    }
  }
  return kept;
}

/** Make `buttons` the hand's children in this order, moving only what must move: a
 * button that stays where it is is never detached (see keptButtons).
 * @param {HTMLElement} hand
 * @param {HTMLElement[]} buttons */
function placeInOrder(hand, buttons) {
  const wanted = new Set(buttons);
  for (const child of [...hand.children]) if (!wanted.has(/** @type {HTMLElement} */ (child))) child.remove();
  buttons.forEach((button, index) => {
    const here = hand.children[index];
    if (here !== button) hand.insertBefore(button, here ?? null);
  });
}

/**
 * @param {View} view
 * @param {UiState} ui */
export function renderHand(view, ui) {
  const hand = byId("hand");
  const area = byId("hand-area");
  area.hidden = view.you === null || view.you === undefined || !view.hand.length;
  if (area.hidden) {
    hand.replaceChildren();
    return;
  }
  const plays = legalPlays(view);
  const discarding = discardCount(view) > 0;
  const leading = view.phase === Phase.LEAD && plays.size > 0;
  const hinted = hintedCards(ui.hint);
  const kitty = new Set(view.kitty && view.contract && view.contract.bidder === view.you ? view.kitty : []);
  const kept = keptButtons(hand);
  const buttons = view.hand.map((id) => {
    let action = "play";
    if (discarding) action = "toggle-discard";
    else if (leading) action = "lead-card";
    const button = kept.get(id) ?? newCardButton(id);
    button.dataset.action = action;
    button.classList.remove("from-kitty", "playable", "hinted");
    button.removeAttribute("aria-pressed");
    button.removeAttribute("aria-disabled");
    delete button.dataset.rove;
    if (discarding) {
      button.setAttribute("aria-pressed", ui.discard.has(id) ? "true" : "false");
      if (kitty.has(id) && view.phase === Phase.DISCARD) button.classList.add("from-kitty");
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
  placeInOrder(hand, buttons);
  // How many cards share the row on a wide screen (table.css sizes and overlaps them).
  hand.style.setProperty("--cards", String(buttons.length));
  // The hand is one Tab stop (roving tabindex).
  rove(hand, buttons);
}
