// @ts-check
// The match-end screen of a club's table (issue 38): each player's rating change. The
// room's frames do not carry it (the club's standings are the club's, asked with the
// player's key): once the match is over, this asks which club the room belongs to
// (GET /api/players/me, its tables) and the club's entry for the match
// (GET /api/clubs/{club}), a few times while the match is not counted yet.

import { formatSigned, t } from "./i18n.js";
import { el } from "./dom.js";
import { asPlayer, playerKey } from "./player.js";
import { Phase } from "./protocol.js";

/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./protocol.js").ClubPage} ClubPage */
/** @typedef {{ club: string, changes: { name: string, change: number }[] }} Changes */

const TRIES = 6;  // the match is counted as it ends; a slow store gets a few more asks
/** @type {Map<string, Changes | null>} by room and match: null while asked */
const found = new Map();

/** @param {View} view */
function keyOf(view) {
  return `${view.room.code}:${view.room.match_number}`;
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** @param {string} code
 * @param {number} match
 * @returns {Promise<Changes | null>} */
async function ask(code, match) {
  const me = await asPlayer("GET", "/api/players/me");
  const table = (me.tables || []).find((/** @type {{ room: string }} */ r) => r.room === code);
  if (!table || !table.club) return null;
  for (let attempt = 0; attempt < TRIES; attempt++) {
    /** @type {ClubPage} */
    const page = await asPlayer("GET", `/api/clubs/${encodeURIComponent(table.club)}`);
    const entry = page.matches.find((m) => m.room === code && m.match === match);
    if (entry && entry.rating_changes) {
      const changes = entry.rating_changes.flatMap((c, s) =>
        c === null || c === undefined ? [] : [{ name: entry.seats[s]?.name ?? "", change: c }]);
      return { club: page.name, changes };
    }
    await sleep(500 * 2 ** attempt);
  }
  return null;
}

/** At a club's table, once the match is over, ask for the rating changes (once per
 * match); `redraw` when they come.
 * @param {View} view
 * @param {() => void} redraw */
export function askRatingChanges(view, redraw) {
  if (view.phase !== Phase.MATCH_OVER || view.room.practice || !playerKey()) return;
  if (view.room.your_seat === null || view.room.your_seat === undefined) return;
  const key = keyOf(view);
  if (found.has(key)) return;
  found.set(key, null);
  ask(view.room.code, view.room.match_number).then((changes) => {
    if (!changes) return;
    found.set(key, changes);
    redraw();
  }).catch(() => {});  // (no club, or no answer: the screen stays as it is)
}

/** "Rating change in Thursdays: Ann +1.2, Bob -0.4", or null (not a club's match, or
 * not known yet).
 * @param {View} view
 * @returns {HTMLElement | null} */
export function ratingChangeLine(view) {
  const changes = found.get(keyOf(view));
  if (!changes || !changes.changes.length) return null;
  const text = changes.changes.map(({ name, change }) =>
    t("club.change_of", { name, change: formatSigned(change) })).join(", ");
  const p = el("p", "rating-changes", t("result.rating_changes", { club: changes.club, changes: text }));
  return p;
}
