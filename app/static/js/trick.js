// The trick in the middle: who played what; a finished trick stays a moment with its
// winner marked, then is collected towards the winner.  Also the last-trick review.
//
// Driven by the state frame's events (what happened since the last state), not by
// comparing views: a `trick_won` event holds the finished trick, a new deal clears it.

import { cardFace } from "./cards.js";
import { cardName, t } from "./i18n.js";
import { positionOf, seatName } from "./table.js";

const HOLD_MS = 900;
const COLLECT_MS = 320;
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

// What the trick area shows; survives re-renders so animations are not restarted.
const shown = { cards: [], hold: null, timer: null };

function playedCard(view, play, winner) {
  const figure = document.createElement("div");
  figure.className = `played pos-${positionOf(view, play.seat)}`;
  if (play.seat === winner) figure.classList.add("winner");
  figure.dataset.card = play.card;
  const label = t("trick.played_by", { name: seatName(view, play.seat), card: cardName(play.card) });
  figure.append(cardFace(play.card, label));
  // The name under the card, for the eye (the card's own label already says it).
  const name = document.createElement("span");
  name.className = "played-by";
  name.setAttribute("aria-hidden", "true");
  name.textContent = seatName(view, play.seat);
  figure.append(name);
  return figure;
}

function draw(view, rerender) {
  const area = document.getElementById("trick");
  area.className = "trick";
  const hold = shown.hold;
  const plays = hold ? hold.cards : view.trick;
  const winner = hold ? hold.winner : null;
  const before = new Set(shown.cards);
  const nodes = plays.map((play) => {
    const node = playedCard(view, play, winner);
    if (!before.has(play.card)) node.classList.add("enter");
    return node;
  });
  shown.cards = plays.map((p) => p.card);
  area.replaceChildren(...nodes);
  if (hold) {
    const who = document.createElement("p");
    who.className = "sr-only";
    who.textContent = t("trick.won_by", { name: seatName(view, winner) });
    area.append(who);
  }
  if (hold && !shown.timer) {
    const pause = reducedMotion.matches ? HOLD_MS / 2 : HOLD_MS;
    shown.timer = setTimeout(() => {
      area.classList.add("collect", `collect-to-${positionOf(view, winner)}`);
      shown.timer = setTimeout(() => {
        shown.timer = null;
        shown.hold = null;
        shown.cards = [];
        rerender();
      }, reducedMotion.matches ? 0 : COLLECT_MS);
    }, pause);
  }
}

function release() {
  clearTimeout(shown.timer);
  shown.timer = null;
  shown.hold = null;
}

/** Render the trick area from the latest view and the events that led to it;
 * `rerender` is called when a hold ends. */
export function renderTrick(view, events, rerender) {
  if (view.phase === "lobby") {
    release();
    document.getElementById("trick").replaceChildren();
    return;
  }
  for (const event of events) {
    if (event.type === "deal_started" || event.type === "match_started") release();
    else if (event.type === "trick_won" && view.last_trick) {
      // A trick was completed: show it, winner marked, before the next one.
      release();
      shown.hold = view.last_trick;
    }
  }
  if (shown.hold && view.trick.length && view.you !== null && view.turn === view.you) {
    // Cards of the next trick are already down and it is our turn: the player must see
    // what was led, so the finished trick gives way at once (it stays in "Last trick").
    clearTimeout(shown.timer);
    shown.timer = null;
    shown.hold = null;
    shown.cards = [];
  }
  draw(view, rerender);
}

export function renderLastTrick(view) {
  const box = document.getElementById("last-trick-box");
  const last = view.last_trick;
  box.hidden = !last || view.phase === "lobby";
  if (!last) return;
  const area = document.getElementById("last-trick");
  area.replaceChildren(...last.cards.map((play) => {
    const figure = document.createElement("figure");
    if (play.seat === last.winner) figure.className = "winner";
    figure.append(cardFace(play.card));
    const caption = document.createElement("figcaption");
    caption.textContent = seatName(view, play.seat);
    figure.append(caption);
    return figure;
  }));
  const won = document.createElement("p");
  won.textContent = t("trick.won_by", { name: seatName(view, last.winner) });
  area.append(won);
}
