// @ts-check
// The trick in the middle: who played what; a finished trick stays with its winner
// marked until the next card is led and it has been in view a while (holdMs: 1.2 s at
// the fast bot pace, longer at slower ones), then is collected towards its winner and
// shows in the "Last trick" strip on the table. The player may move on sooner: by
// playing their own card, or with `Next trick` (a click or tap anywhere on the trick).
//
// Driven by the state frame's events (what happened since the last state), not by
// comparing views: `card_played` brings a card in from its player's side, a `trick_won`
// holds the finished trick, a new deal clears it.

import { cardFace } from "./cards.js";
import { cardName, t } from "./i18n.js";
import { byId, el } from "./dom.js";
import { positionOf, seatName } from "./table.js";
import { BotPace, Phase } from "./protocol.js";

/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./protocol.js").TrickCard} TrickCard */
/** @typedef {import("./protocol.js").StateEvent} Event */
/** @typedef {import("./protocol.js").LastTrick} LastTrick */

const COLLECT_MS = 320;

/** How long a finished trick stays in view at least, by the room's bot pace: card-table
 * players expect to see it 1 to 2 s, and at a slower pace the table moves slower anyway.
 * @param {string | null | undefined} pace the room's `settings.bot_pace`
 * @returns {number} milliseconds */
export function holdMs(pace) {
  if (pace === BotPace.RELAXED) return 2000;
  if (pace === BotPace.FAST) return 1200;
  return 1500;
}

/** The person asked for less motion (read when it matters: it can change). */
function reducedMotion() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

// What the trick area shows; survives re-renders so animations are not restarted.
/** @type {{ hold: LastTrick | null, since: number, timer: number | undefined, collecting: boolean }} */
const shown = { hold: null, since: 0, timer: undefined, collecting: false };

/**
 * @param {View} view
 * @param {TrickCard} play
 * @param {number | null} winner
 * @param {Set<string>} entering */
function playedCard(view, play, winner, entering) {
  const figure = el("div", `played pos-${positionOf(view, play.seat)}`);
  if (play.seat === winner) figure.classList.add("winner");
  if (entering.has(play.card)) figure.classList.add("enter", `from-${positionOf(view, play.seat)}`);
  figure.dataset.card = play.card;
  const label = t("trick.played_by", { name: seatName(view, play.seat), card: cardName(play.card) });
  figure.append(cardFace(play.card, label));
  // The name under the card, for the eye (the card's own label already says it).
  const name = el("span", "played-by", seatName(view, play.seat));
  name.setAttribute("aria-hidden", "true");
  figure.append(name);
  return figure;
}

function release() {
  clearTimeout(shown.timer);
  shown.timer = undefined;
  shown.hold = null;
  shown.collecting = false;
}

/** The held trick goes once it has been seen holdMs and the next card is down.
 * @param {View} view
 * @param {() => void} rerender */
function schedule(view, rerender) {
  const hold = shown.hold;
  if (!hold || shown.collecting) return;
  const waited = Date.now() - shown.since;
  const holding = holdMs(view.room.settings.bot_pace);
  if (waited < holding) {
    if (!shown.timer) {
      shown.timer = window.setTimeout(() => {
        shown.timer = undefined;
        rerender();
      }, holding - waited + 10);
    }
    return;
  }
  if (!view.trick.length) return;
  shown.collecting = true;
  const area = byId("trick");
  area.classList.add("collect", `collect-to-${positionOf(view, hold.winner)}`);
  shown.timer = window.setTimeout(() => {
    release();
    rerender();
  }, reducedMotion() ? 0 : COLLECT_MS);
}

/** Render the trick area from the latest view and the events that led to it;
 * `rerender` is called when a hold ends.
 * @param {View} view
 * @param {Event[]} events
 * @param {() => void} rerender */
export function renderTrick(view, events, rerender) {
  const area = byId("trick");
  if (view.phase === Phase.LOBBY) {
    // Back in the lobby the last match's tricks are gone, the strip's with them.
    release();
    area.replaceChildren();
    renderLastTrick(view);
    return;
  }
  const entering = new Set();
  for (const event of events) {
    if (event.type === "deal_started" || event.type === "match_started") release();
    else if (event.type === "card_played") {
      entering.add(event.card);
      // Our own card in the next trick (our lead, or our answer to a lead) says we have
      // seen enough: the finished trick gives way at once (to the "Last trick" strip).
      // Someone else's lead does not: the hold ends with its time, or `Next trick`.
      if (view.you !== null && event.seat === view.you) release();
    }
    else if (event.type === "trick_won" && view.last_trick) {
      release();
      shown.hold = view.last_trick;
      shown.since = Date.now();
    }
  }
  const hold = shown.hold;
  const plays = hold ? hold.cards : view.trick;
  const winner = hold ? hold.winner : null;
  /** @type {HTMLElement[]} */
  const nodes = plays.map((play) => playedCard(view, play, winner, entering));
  if (hold) nodes.push(el("p", "sr-only", t("trick.won_by", { name: seatName(view, hold.winner) })));
  // A deal's last trick stays as the deal's end: no next trick to move on to.
  if (hold && view.phase === Phase.PLAY) {
    // Seen enough: a button for the keyboard, and a click anywhere on the trick.
    // Its name is the label; on a phone's narrow corner only the arrow shows.
    const next = el("button", "trick-next");
    next.type = "button";
    next.setAttribute("aria-label", t("trick.next"));
    next.title = t("trick.next");
    const word = el("span", "trick-next-word", t("trick.next"));
    const arrow = el("span", "trick-next-arrow", "»");
    word.setAttribute("aria-hidden", "true");
    arrow.setAttribute("aria-hidden", "true");
    next.append(word, arrow);
    next.dataset.action = "next-trick";
    next.dataset.key = "next-trick";
    nodes.push(next);
    area.dataset.action = "next-trick";
  } else {
    delete area.dataset.action;
  }
  area.className = "trick";
  if (hold && shown.collecting) area.classList.add("collect", `collect-to-${positionOf(view, hold.winner)}`);
  area.replaceChildren(...nodes);
  schedule(view, rerender);
  renderLastTrick(view);
}

/** The player has seen the finished trick: it goes now (the `Next trick` action).
 * @param {() => void} rerender */
export function nextTrick(rerender) {
  if (!shown.hold) return;
  release();
  rerender();
}

/** The trick the "Last trick" strip shows: the latest finished trick that is not still
 *  in the middle (while `hold` is held there, the one before it); none in the lobby.
 * @param {View} view
 * @param {LastTrick | null} hold the finished trick held in the middle, if any
 * @returns {LastTrick | null} */
export function stripTrick(view, hold) {
  if (view.phase === Phase.LOBBY) return null;
  /** @type {LastTrick[]} */
  const done = view.tricks && view.tricks.length ? view.tricks : view.last_trick ? [view.last_trick] : [];
  /** @param {LastTrick | undefined} trick */
  const held = (trick) => Boolean(hold && trick && hold.cards.length === trick.cards.length
    && hold.cards.every((p, i) => trick.cards[i]?.card === p.card));
  let last = done[done.length - 1];
  if (held(last)) last = done.length > 1 ? done[done.length - 2] : undefined;
  return last || null;
}

/** The "Last trick" strip on the table (stripTrick).
 * @param {View} view */
function renderLastTrick(view) {
  const strip = byId("last-trick");
  const last = stripTrick(view, shown.hold);
  strip.hidden = !last;
  if (!last) {
    strip.replaceChildren();
    return;
  }
  const cards = el("div", "mini-cards");
  for (const play of last.cards) {
    const label = t("trick.played_by", { name: seatName(view, play.seat), card: cardName(play.card) });
    const face = cardFace(play.card, label);
    if (play.seat === last.winner) face.classList.add("winner");
    cards.append(face);
  }
  strip.replaceChildren(el("p", "strip-title", t("room.last_trick")), cards,
    el("p", "strip-won", t("trick.won_by", { name: seatName(view, last.winner) })));
}
