// @ts-check
// "Your turn", everywhere: the tab title and icon while it is your turn, and at the start
// of a turn an optional short sound (WebAudio, no file), a vibration on phones (on unless
// switched off) and the focus on the first control the turn needs (never taken from a
// text box: the chat).

import { assetUrl } from "./assets.js";
import { t } from "./i18n.js";

/** @typedef {import("./protocol.js").View} View */

const SOUND_KEY = "amerikaner.sound";
const VIBRATE_KEY = "amerikaner.vibrate";
const ICON = assetUrl("/static/cards/favicon.svg");
const TURN_ICON = assetUrl("/static/cards/favicon-turn.svg");

let wasMine = false;
let lastStage = "";
/** @type {AudioContext | null} */
let audio = null;

/** It is this seat's turn and the view offers it something to do.
 * @param {View} view */
export function isMyTurn(view) {
  return view.you !== null && view.you !== undefined && view.turn === view.you
    && Array.isArray(view.legal) && view.legal.length > 0;
}

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === "1";
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

/** Two short soft notes (about 0.25 s in all). */
export function chime() {
  try {
    const context = audio || new AudioContext();
    audio = context;
    if (context.state === "suspended") context.resume();
    const start = context.currentTime + 0.01;
    [660, 880].forEach((frequency, i) => {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.type = "sine";
      osc.frequency.value = frequency;
      const at = start + i * 0.12;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.12);
      osc.connect(gain).connect(context.destination);
      osc.start(at);
      osc.stop(at + 0.13);
    });
  } catch {
    // No audio here (or not allowed yet): the title and icon still say it.
  }
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
    if (soundOn()) chime();
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

/** The sound toggle in the top bar (remembered; off by default). */
export function setUpSoundToggle() {
  const box = document.getElementById("sound-toggle");
  if (!(box instanceof HTMLInputElement)) return;
  box.checked = soundOn();
  box.addEventListener("change", () => {
    localStorage.setItem(SOUND_KEY, box.checked ? "1" : "0");
    // The click is a user gesture: the audio context may start now, and the player
    // hears what the sound is like.
    if (box.checked) chime();
  });
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
