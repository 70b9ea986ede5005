// @ts-check
// The panel for someone watching a table they have no seat at: what joining does now
// (a free seat in the lobby; after the start, a bot's seat, the bot finishing a deal under
// way; nothing while people hold every seat), and, after the start, a button per bot seat so
// that the joiner chooses whose seat to take. In the lobby the seats on the table carry
// their own `Take seat N` buttons. `Join` itself keeps taking the first free seat
// (docs/spec/PROTOCOL.md, the browser page).

import { t, tn } from "./i18n.js";
import { byId, el, replaceIfDifferent } from "./dom.js";
import { Phase } from "./protocol.js";
import { seatName } from "./table.js";

/** @typedef {import("./protocol.js").View} View */

/** The seats a person may join now, as the server's `joinable_seats` decides: in the
 *  lobby every seat no person holds; after the start every seat a bot plays that no
 *  person has claimed yet (a claimed seat counts as a person's).
 * @param {View} view
 * @returns {number[]} */
export function joinableSeats(view) {
  if (view.room.practice) return [];
  const lobby = view.phase === Phase.LOBBY;
  return view.room.seats.filter((s) => !s.human && (lobby || s.bot !== null)).map((s) => s.seat);
}

/** What the watcher reads: the seats free to join and when the joiner plays.
 * @param {View} view */
export function watchingText(view) {
  const seats = joinableSeats(view);
  if (!seats.length) return t("room.watching");
  if (view.phase === Phase.LOBBY) return tn("room.watching_free", seats.length, { n: seats.length });
  return tn("room.watching_bots", seats.length, { n: seats.length });
}

/** The choice of a bot's seat after the start: `Take seat 2 (Bot 2)`, one per seat.
 * @param {View} view */
function seatChoices(view) {
  if (view.phase === Phase.LOBBY) return [];
  return joinableSeats(view).map((seat) => {
    const take = el("button", "", t("seat.take_bot", { n: seat + 1, bot: seatName(view, seat) }));
    take.type = "button";
    take.dataset.action = "take-seat";
    take.dataset.seat = String(seat);
    take.dataset.key = `join-seat:${seat}`;
    return take;
  });
}

/** Show the panel to a watcher of a table others can join (never at a practice table).
 * @param {View | null} view */
export function renderJoinPanel(view) {
  const panel = byId("join-panel");
  const seated = view && view.room.your_seat !== null && view.room.your_seat !== undefined;
  panel.hidden = !view || Boolean(seated) || view.room.practice;
  if (!view || panel.hidden) return;
  const hint = byId("join-hint");
  const text = watchingText(view);
  if (hint.textContent !== text) hint.textContent = text;
  const choices = byId("join-seats");
  const buttons = seatChoices(view);
  choices.hidden = !buttons.length;
  replaceIfDifferent(choices, buttons);
}
