// @ts-check
// Countdowns: the seat being waited for (a dropped player's grace, the turn timer) and
// the next deal.  The server owns the clock and sends deadlines (epoch seconds); the
// client only counts down to them, once a second, touching nothing but the numbers.
// A countdown is not a live region (it would speak every second).

import { t } from "./i18n.js";
import { el } from "./dom.js";

/** An element that shows the seconds left until `until` (epoch seconds).
 * @param {number} until */
export function countdown(until) {
  const span = el("span", "countdown");
  span.dataset.until = String(until);
  span.setAttribute("aria-live", "off");
  span.setAttribute("role", "timer");
  fill(span);
  return span;
}

/** @param {HTMLElement} span */
function fill(span) {
  const left = Math.max(0, Math.ceil(Number(span.dataset.until) - Date.now() / 1000));
  const text = t("clock.seconds", { n: left });
  if (span.textContent !== text) span.textContent = text;
  // The last ten seconds stand out.
  span.classList.toggle("urgent", left <= 10);
}

export function tickClocks() {
  for (const span of document.querySelectorAll("[data-until]")) {
    if (span instanceof HTMLElement) fill(span);
  }
}

/** @type {number | null} */
let timer = null;

export function startClocks() {
  if (!timer) timer = window.setInterval(tickClocks, 250);
}
