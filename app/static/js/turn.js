// @ts-check
// "Your turn", everywhere: the tab title and icon while it is your turn, and at the start
// of a turn an optional short sound (WebAudio, no file), a vibration on phones and the
// focus on the first control the turn needs (never taken from a text box: the chat).

import { t } from "./i18n.js";

/** @typedef {import("./protocol.js").View} View */

const SOUND_KEY = "amerikaner.sound";
const ICON = "/static/cards/favicon.svg";
const TURN_ICON = "/static/cards/favicon-turn.svg";

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
    // Browsers refuse (and complain about) a vibration before the person has touched the page.
    const touched = !navigator.userActivation || navigator.userActivation.hasBeenActive;
    if (navigator.vibrate && touched && window.matchMedia("(pointer: coarse)").matches) navigator.vibrate(120);
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
