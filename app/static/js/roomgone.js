// @ts-check
// A room that is no more: the server closed the connection as it knows no room by this
// code (a room nobody played at for a while is deleted; or the code is mistyped). The page
// says so in place of the table, with a way home and, when the link came from a club's
// page (`?club=ID`, clubmatches.js), back to that club, which keeps the room's finished
// matches (docs/clubs.md).

import { byId } from "./dom.js";
import { clearMessage } from "./notices.js";

// A club's id as the server makes them (app/clubs/keys.py): letters, digits, - and _.
const CLUB_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The club a room's link came from (its `?club=` parameter), or null.
 * @param {string} search the page address's query (`location.search`)
 * @returns {string | null} */
export function clubFrom(search) {
  const club = new URLSearchParams(search).get("club");
  return club !== null && CLUB_ID.test(club) ? club : null;
}

/** A room's link from a club's page: the room page can lead back to the club.
 * @param {string} room
 * @param {string} club */
export function clubRoomLink(room, club) {
  return `/r/${encodeURIComponent(room)}?club=${encodeURIComponent(club)}`;
}

/** The table is gone: the panel that says so in place of the table and the side panels.
 * @param {string | null} club the club the link came from */
export function showRoomGone(club) {
  // (nothing left to play, join or share; the server's "no room" error says less)
  for (const id of ["play-area", "side", "join-panel", "copy-link", "share-button"]) byId(id).hidden = true;
  byId("conn-status").textContent = "";
  clearMessage("room-error");
  const back = byId("room-gone-back", HTMLAnchorElement);
  back.hidden = byId("room-gone-club").hidden = club === null;
  if (club !== null) back.href = `/c/${encodeURIComponent(club)}`;
  const panel = byId("room-gone");
  const wasHidden = panel.hidden;
  panel.hidden = false;
  // (a screen reader hears what the page now is; the keyboard starts from it)
  if (wasHidden) byId("room-gone-heading").focus({ preventScroll: true });
}
