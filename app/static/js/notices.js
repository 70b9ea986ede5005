// @ts-check
// Short messages on the room page that go away by themselves: errors (an alert region)
// and notices (a status region), and the room events worth a word at the table.

import { t } from "./i18n.js";
import { seatName } from "./table.js";
import { byId } from "./dom.js";
import { SeatEventKind } from "./protocol.js";

/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./protocol.js").StateEvent} Event */

/** @type {Record<string, number>} */
const messageTimers = {};

/** Show `text` in the element `id` (`room-error` or `room-notice`) for a few seconds.
 * @param {string} id
 * @param {string} text */
export function flash(id, text) {
  const el = byId(id);
  el.textContent = text;
  clearTimeout(messageTimers[id]);
  messageTimers[id] = window.setTimeout(() => { el.textContent = ""; }, 6000);
}

/** @param {string} id */
export function clearMessage(id) {
  clearTimeout(messageTimers[id]);
  byId(id).textContent = "";
}

/** @param {string} text */
export function showError(text) {
  flash("room-error", text);
}

// Room events worth a word at the table itself (the chat, hidden in practice, has them
// too): a bot moved for someone whose time ran out, a bot stands in, the person is back.
/** @type {Record<string, string>} */
const NOTICES = {
  [SeatEventKind.TIMED_OUT]: "notice.timed_out",
  [SeatEventKind.STAND_IN]: "notice.stand_in",
  [SeatEventKind.RETURNED]: "notice.returned",
};

/** A notice for each of `list` (a state frame's events) worth one, named from `view`.
 * @param {Event[]} list
 * @param {View | null} view */
export function announce(list, view) {
  for (const event of list) {
    const key = NOTICES[event.type];
    if (key && view && "seat" in event && typeof event.seat === "number"
      // "Bob is back" is news to the others, not to Bob (he gets what the bot did)
      && !(event.type === SeatEventKind.RETURNED && event.seat === view.room.your_seat)) {
      flash("room-notice", t(key, { name: personName(view, event.seat) }));
    }
  }
}

/** The person of a seat (not the bot standing in for them).
 * @param {View} view
 * @param {number} seat */
function personName(view, seat) {
  const info = view.room.seats[seat];
  return (info && (info.joining || info.name)) || seatName(view, seat);
}
