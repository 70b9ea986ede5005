// @ts-check
// Short sounds for what happens at the table: your turn, a trick taken, the deal's end.
// Made with the Web Audio API (no file to fetch), off unless the player turns them on in
// the top bar, and remembered (localStorage). The sounds one state frame calls for are
// played together, one after the other, your turn last.

/** @typedef {import("./protocol.js").StateEvent} Event */
/** @typedef {"trick" | "deal_end" | "turn"} SoundName */

const SOUND_KEY = "amerikaner.sound";
const GAP = 0.14; // seconds between two notes
const SPACE = 0.12; // seconds between two sounds of one frame

/** Each sound's notes (Hz), in the order played; the order of the keys is the order in
 *  which the sounds of one frame follow each other. */
export const SOUNDS = Object.freeze({
  trick: [494, 392],  // two soft falling notes: the cards go to the winner
  deal_end: [523, 659, 784],  // a rising chord, one note after another: the deal is over
  turn: [660, 880],  // two rising notes: your move
});

/** @type {AudioContext | null} */
let audio = null;
/** @type {Set<SoundName>} */
const queued = new Set();

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === "1";
}

/** The sounds a state frame's events call for (your turn is told by turn.js).
 * @param {Event[]} events
 * @returns {SoundName[]} */
export function eventSounds(events) {
  /** @type {SoundName[]} */
  const names = [];
  if (events.some((e) => e.type === "deal_scored" || e.type === "deal_void")) names.push("deal_end");
  // the deal's last trick is part of its end: one sound for both
  else if (events.some((e) => e.type === "trick_won")) names.push("trick");
  return names;
}

/** @param {AudioContext} context
 * @param {number[]} notes
 * @param {number} start */
function playNotes(context, notes, start) {
  notes.forEach((frequency, i) => {
    const osc = context.createOscillator();
    const gain = context.createGain();
    osc.type = "sine";
    osc.frequency.value = frequency;
    const at = start + i * GAP;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.15, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + GAP);
    osc.connect(gain).connect(context.destination);
    osc.start(at);
    osc.stop(at + GAP + 0.01);
  });
  return start + notes.length * GAP + SPACE;
}

/** Play these sounds now, one after the other, whether or not sound is on (the toggle
 *  plays one when switched on).
 * @param {Iterable<SoundName>} names */
export function playNow(names) {
  try {
    const context = audio || new AudioContext();
    audio = context;
    if (context.state === "suspended") context.resume();
    let at = context.currentTime + 0.01;
    for (const name of /** @type {SoundName[]} */ (Object.keys(SOUNDS))) {
      if ([...names].includes(name)) at = playNotes(context, SOUNDS[name], at);
    }
  } catch {
    // No audio here (or not allowed yet): what happened is on the screen anyway.
  }
}

/** Sound `name` if the player wants sounds; the sounds asked for while one message is
 *  handled are played together once it is (in a microtask), in SOUNDS' order.
 * @param {SoundName} name */
export function sound(name) {
  if (!soundOn()) return;
  if (!queued.size) {
    queueMicrotask(() => {
      const names = [...queued];
      queued.clear();
      playNow(names);
    });
  }
  queued.add(name);
}

/** The sound switch in the top bar (remembered; off by default). */
export function setUpSoundToggle() {
  const box = document.getElementById("sound-toggle");
  if (!(box instanceof HTMLInputElement)) return;
  box.checked = soundOn();
  box.addEventListener("change", () => {
    localStorage.setItem(SOUND_KEY, box.checked ? "1" : "0");
    // The click is a user gesture: the audio context may start now, and the player
    // hears what a sound is like.
    if (box.checked) playNow(["turn"]);
  });
}
