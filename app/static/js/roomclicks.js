// @ts-check
// The room page's buttons: the one click listener and its table from a control's
// `data-action` to what it does. A game action (a bid, a card, the discard, the first
// lead with its call and grand), a message to the room (start, ready, a review, leave...),
// a step of the page's own (a card chosen for the discard or the lead, the Amerikaner
// question, the finished trick collected, the stand-in's summary read), or the room's
// link, record and replay. room.js hands it what they act on (`RoomClicks`): the view
// shown, the page's state, and how to act, send, join and redraw.

import { DOUBLE_CLICK_SAFE, amerikanerQuestionClicks } from "./auction.js";
import { discardCount } from "./hand.js";
import { forgetToken } from "./net.js";
import { openReplay } from "./roomreplay.js";
import { copyLink, downloadRecord, roomLink } from "./share.js";
import { nextTrick } from "./trick.js";
import { reviewKey, toggleDiscard } from "./uistate.js";

/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./protocol.js").ClientMessage} ClientMessage */
/** @typedef {import("./payloads.js").Action} Action */

/**
 * What the buttons act on (room.js's).
 * @typedef {object} RoomClicks
 * @property {string} code the room's code
 * @property {import("./uistate.js").UiState} ui the page's own state
 * @property {() => View | null} view the view shown now (none before the first state)
 * @property {(action: Action) => void} act send a game action (once per `game`)
 * @property {(message: ClientMessage) => void} send
 * @property {(seat?: number) => Promise<void>} join take a seat (that one, or the first free)
 * @property {() => void} connect (re)connect, with the seat's token if there is one
 * @property {() => void} render redraw the page
 */

/** Listen to the page's clicks on its `data-action` controls. Called once, by room.js.
 * @param {RoomClicks} room */
export function listenToClicks(room) {
  const clicks = clickTable(room);
  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target.closest("[data-action]") : null;
    if (!(target instanceof HTMLElement) || (target instanceof HTMLButtonElement && target.disabled)
      || target.getAttribute("aria-disabled") === "true") return;
    const action = target.dataset.action ?? "";
    // The second click of a double click (or tap) is no second decision: on the bids the
    // first one acted (on Amerikaner: it asked), and what came under the pointer since, the
    // question's `Yes` or a bid the question moved there, must not act on it.
    if (event.detail > 1 && DOUBLE_CLICK_SAFE.has(action)) return;
    const handler = clicks[action];
    if (handler) handler(target);
  });
}

/** @param {RoomClicks} room
 * @returns {Record<string, (b: HTMLElement) => void>} */
function clickTable({ code, ui, view, act, send, join, connect, render }) {
  return {
    bid: (b) => {
      const bid = b.dataset.bid ?? "";
      act({ bid: /^\d+$/.test(bid) ? Number(bid) : bid });
    },
    // Amerikaner asks first (auction.js): a second press, on `Yes`, bids it
    ...amerikanerQuestionClicks(ui, () => render()),
    play: (b) => act({ play: b.dataset.card ?? "" }),
    "toggle-discard": (b) => {
      const shown = view();
      if (!shown) return;
      const complete = toggleDiscard(ui.discard, b.dataset.card ?? "", discardCount(shown));
      render();
      // Every card chosen: Discard is next, and by keyboard it was many Tabs away.
      const discard = document.querySelector("#controls button[data-action='discard']");
      if (complete && discard instanceof HTMLButtonElement && !discard.disabled) discard.focus();
    },
    discard: () => act({ discard: [...ui.discard] }),
    "lead-card": (b) => {
      ui.leadCard = b.dataset.card ?? null;
      render();
      // The calls' stop: the card the hint would call (controls.js firstCall).
      const call = document.querySelector("#controls .calls [tabindex='0']");
      if (call instanceof HTMLElement) call.focus();
    },
    lead: (b) => {
      /** @type {Action} */
      const action = { play: b.dataset.card ?? "" };
      if (b.dataset.call) action.call = b.dataset.call;
      if (ui.grand) action.grand = true;
      act(action);
    },
    "take-seat": (b) => join(Number(b.dataset.seat)),
    join: () => join(undefined),
    start: () => send({ type: "start" }),
    ready: () => send({ type: "ready" }),
    rematch: () => send({ type: "rematch" }),
    review: (b) => {
      const shown = view();
      if (!shown) return;
      const deal = Number(b.dataset.deal);
      // an earlier match's deal (from the earlier matches' panel), or one of this match
      const match = b.dataset.match ? Number(b.dataset.match) : shown.room.match_number;
      ui.reviews.set(reviewKey(match, deal), null);
      send({ type: "review", deal, match });
      render();
    },
    again: () => send({ type: "again" }),
    "back-to-lobby": () => send({ type: "lobby" }),
    react: (b) => send({ type: "react", reaction: /** @type {import("./protocol.js").ReactionValue} */ (b.dataset.reaction) }),
    leave: () => {
      send({ type: "leave" });
      forgetToken(code);
      setTimeout(connect, 200);
    },
    // an earlier match's (its number on the button), or the match whose end is on screen
    download: (b) => {
      const shown = view();
      downloadRecord(code, b.dataset.match ? Number(b.dataset.match)
        : shown ? shown.room.match_number : 1);
    },
    // a score sheet's row: this match's deal (its index), or an earlier match's row
    replay: (b) => openReplay(code, {
      match: Number(b.dataset.match),
      deal: b.dataset.deal !== undefined ? Number(b.dataset.deal) : null,
      scored: b.dataset.scored !== undefined ? Number(b.dataset.scored) : null,
    }, (match, deal) => ui.reviews.get(reviewKey(match, deal)) ?? null),
    // the finished trick in the middle has been seen: collect it now
    "next-trick": () => nextTrick(render),
    // the summary of what a bot did for us while we were away has been read
    "dismiss-stood-in": () => {
      const shown = view();
      if (shown) ui.stoodInDismissed = JSON.stringify(shown.room.stood_in);
      render();
    },
    "copy-link": () => copyLink(code),
    share: () => navigator.share({ title: "Amerikaner", url: roomLink(code) }).catch(() => {}),
  };
}
