// @ts-check
// "Your turn", everywhere: the tab title and icon while it is your turn, and at the start
// of a turn a short sound if the player wants sounds (sound.js), a vibration on phones (on unless
// switched off) and the focus on the first control the turn needs (never taken from a
// text box: the chat).

import { assetUrl } from "./assets.js";
import { t } from "./i18n.js";
import { sound } from "./sound.js";

/** @typedef {import("./protocol.js").View} View */

const VIBRATE_KEY = "amerikaner.vibrate";
const ICON = assetUrl("/static/cards/favicon.svg");
const TURN_ICON = assetUrl("/static/cards/favicon-turn.svg");

let wasMine = false;
let lastStage = "";

/** It is this seat's turn and the view offers it something to do.
 * @param {View} view */
export function isMyTurn(view) {
  return view.you !== null && view.you !== undefined && view.turn === view.you
    && Array.isArray(view.legal) && view.legal.length > 0;
}

/** The vibration switch as saved: on unless the player turned it off.
 * @param {string | null} saved localStorage's value ("0", "1" or nothing) */
export function vibrationWanted(saved) {
  return saved !== "0";
}

/** Whether a new turn vibrates: the player wants it, the browser can, the page has been
 *  touched (browsers refuse, and complain about, a vibration before that) and the screen
 *  is a touch screen.
 * @param {{ wanted: boolean, supported: boolean, touched: boolean, coarse: boolean }} facts */
export function shouldVibrate(facts) {
  return facts.wanted && facts.supported && facts.touched && facts.coarse;
}

function baseTitle() {
  const meta = document.querySelector("meta[name='i18n-title']");
  return `${t(meta instanceof HTMLMetaElement ? meta.content : "title.room")} · Amerikaner`;
}

/** @param {boolean} mine */
function setTitle(mine) {
  const title = mine ? `${t("turn.title")} · ${baseTitle()}` : baseTitle();
  if (document.title !== title) document.title = title;
}

/** @param {boolean} mine */
function setIcon(mine) {
  const link = document.querySelector("link[rel='icon']");
  const href = mine ? TURN_ICON : ICON;
  if (link && link.getAttribute("href") !== href) link.setAttribute("href", href);
}

/** The first control a turn needs: the roving stop of the bids, or of the hand.
 * @returns {HTMLElement | null} */
function firstControl() {
  return document.querySelector(
    "#controls [data-roving] [tabindex='0'], #controls button:not(:disabled), #hand [tabindex='0']");
}

function moveFocus() {
  const active = document.activeElement;
  // Someone typing (the chat, the name, a rule) keeps the focus.
  if (active && active.matches("input[type='text'], input[type='number'], textarea, select")) return;
  if (active && active.closest("dialog[open], .menu-panel")) return;
  const target = firstControl();
  if (target && target !== active) target.focus({ preventScroll: true });
}

/** Called after every render: title and icon follow the turn; a new turn rings,
 *  vibrates and moves the focus.
 * @param {View} view */
export function signalTurn(view) {
  const mine = isMyTurn(view);
  setTitle(mine);
  setIcon(mine);
  const stage = `${view.deal_number}:${view.phase}`;
  if (mine && !wasMine) {
    sound("turn");
    const vibrate = shouldVibrate({
      wanted: vibrationWanted(localStorage.getItem(VIBRATE_KEY)),
      supported: typeof navigator.vibrate === "function",
      touched: !navigator.userActivation || navigator.userActivation.hasBeenActive,
      coarse: window.matchMedia("(pointer: coarse)").matches,
    });
    if (vibrate) navigator.vibrate(120);
  }
  // A new turn, or the next step of the same one (the discard, then the lead).
  if (mine && (!wasMine || stage !== lastStage)) moveFocus();
  wasMine = mine;
  lastStage = stage;
}

/** The vibration switch in the top bar (remembered; on by default), shown only where the
 *  browser can vibrate. */
export function setUpVibrationToggle() {
  const box = document.getElementById("vibrate-toggle");
  if (!(box instanceof HTMLInputElement)) return;
  const label = box.closest("label");
  if (label) label.hidden = typeof navigator.vibrate !== "function";
  box.checked = vibrationWanted(localStorage.getItem(VIBRATE_KEY));
  box.addEventListener("change", () => localStorage.setItem(VIBRATE_KEY, box.checked ? "1" : "0"));
}
