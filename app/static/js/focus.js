// @ts-check
// Re-rendering keeps the keyboard focus: each control has a `data-key`, and after a
// render the element with the same key (or, in the hand, the card at the same place)
// gets the focus back, with its focus ring when the keyboard had put it there.

import { isTypedField } from "./dom.js";

/** @typedef {{ key: string, index: number, area: Element | null, ring: boolean }} SavedFocus */

/** What has the focus now, to find it again after the render.
 * @returns {SavedFocus | null} */
export function captureFocus() {
  const active = document.activeElement;
  if (!(active instanceof HTMLElement) || !active.dataset.key) return null;
  const hand = active.closest("#hand");
  const index = hand ? [...hand.children].indexOf(active) : -1;
  return {
    key: active.dataset.key, index, area: active.closest("#hand, #controls, #seats, #result, #lobby"),
    // A keyboard user's focus ring: the browser does not show it again for an element
    // focused by script after the old one was replaced, so we mark it ourselves.
    ring: active.matches(":focus-visible") || active.classList.contains("focus-ring"),
  };
}

/** @param {HTMLElement} element
 * @param {SavedFocus} saved */
function focusAgain(element, saved) {
  element.focus();
  // A field drawn anew under the person's focus: what they type next replaces its value,
  // as when Tab brings them into it (dom.js heldForInput keeps a field being typed in).
  if (isTypedField(element)) element.select();
  if (!saved.ring) return;
  element.classList.add("focus-ring");
  element.addEventListener("blur", () => element.classList.remove("focus-ring"), { once: true });
}

/** @param {SavedFocus | null} saved */
export function restoreFocus(saved) {
  if (!saved || (document.activeElement && document.activeElement !== document.body)) return;
  const same = document.querySelector(`[data-key="${CSS.escape(saved.key)}"]`);
  if (same instanceof HTMLElement && !(same instanceof HTMLButtonElement && same.disabled)) {
    focusAgain(same, saved);
    return;
  }
  const cards = [...document.querySelectorAll("#hand button")];
  const card = saved.index >= 0 ? cards[Math.min(saved.index, cards.length - 1)] : undefined;
  if (card instanceof HTMLElement) {
    focusAgain(card, saved);
    return;
  }
  const fallback = document.querySelector("#controls button:not(:disabled), #hand [tabindex='0']");
  if (fallback instanceof HTMLElement && saved.area) focusAgain(fallback, saved);
}
