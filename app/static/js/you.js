// @ts-check
// The "You" panel of the landing page (issue 38): the player's clubs (links to their
// pages), the tables they sat at lately (rejoined with the seat token this browser
// kept), their rating in each club, a new club, a code for another device, their data
// to download, and deleting them. Everything is asked with the player's key.

import { ApiError, api, savedToken } from "./net.js";
import { asPlayer, ensurePlayer, forgetPlayer, playerKey, savePlayer } from "./player.js";
import { formatNumber, t } from "./i18n.js";
import { byId, downloadJson, el } from "./dom.js";

/** @typedef {import("./protocol.js").PlayerInfo} PlayerInfo */
/** @typedef {import("./protocol.js").ClubPage} ClubPage */
/** @typedef {import("./protocol.js").Rating} Rating */

const NAME_KEY = "amerikaner.name";  // (main.js: the name the forms start with)
const RATED_CLUBS = 5;
const RECENT_TABLES = 6;  // the tables listed (each asked whether its room lives)  // the clubs whose standings are asked for the ratings

/** "25.0 ± 8.3": a rating with its uncertainty.
 * @param {Rating} rating */
export function ratingText(rating) {
  const one = (/** @type {number} */ n) => formatNumber(Math.round(n * 10) / 10);
  return t("club.rating_value", { mu: one(rating.mu), sigma: one(rating.sigma) });
}

/** A form's own refusal (an empty field), shown as the server's are.
 * @param {string} message */
export function formError(message) {
  return new ApiError(0, "form", message);
}

/** @param {string} id
 * @param {HTMLElement[]} items */
function fillList(id, items) {
  byId(id).replaceChildren(...items);
  byId(id.replace("you-", "you-no-")).hidden = items.length > 0;
}

/** @param {string} href
 * @param {string} text */
function linkItem(href, text) {
  const li = el("li");
  const a = el("a", "", text);
  if (a instanceof HTMLAnchorElement) a.href = href;
  li.append(a);
  return li;
}

/** @param {string} text */
function say(text) {
  byId("you-status").textContent = text;
}

/** Show the panel for this browser's player (hidden without one).
 * @returns {Promise<void>} */
export async function showYou() {
  const panel = byId("you-player");
  if (!playerKey()) {
    panel.hidden = true;
    return;
  }
  /** @type {PlayerInfo} */
  let me;
  try {
    me = await asPlayer("GET", "/api/players/me");
  } catch {
    panel.hidden = !playerKey();
    return;
  }
  panel.hidden = false;
  const name = byId("name", HTMLInputElement);
  if (!name.value) name.value = me.name;
  fillList("you-clubs", me.clubs.map((c) => linkItem(`/c/${encodeURIComponent(c.club)}`, c.name)));
  const clubNames = new Map(me.clubs.map((c) => [c.club, c.name]));
  // A table is rejoined with its seat's token, kept by this browser only, while the
  // room lives (a room the server no longer has answers 404).
  const kept = (me.tables || []).filter((table) => savedToken(table.room)).slice(0, RECENT_TABLES);
  const alive = await Promise.all(kept.map((table) =>
    api("GET", `/api/rooms/${encodeURIComponent(table.room)}`).then(() => true, () => false)));
  const tables = kept.filter((_, i) => alive[i]);
  fillList("you-tables", tables.map((table) => {
    const club = table.club ? clubNames.get(table.club) : undefined;
    const text = club ? t("you.table_of_club", { code: table.room, club })
      : t("you.table", { code: table.room });
    return linkItem(`/r/${encodeURIComponent(table.room)}`, text);
  }));
  const pages = await Promise.all(me.clubs.slice(0, RATED_CLUBS).map(
    (c) => asPlayer("GET", `/api/clubs/${encodeURIComponent(c.club)}`).catch(() => null)));
  /** @type {HTMLElement[]} */
  const ratings = [];
  for (const page of /** @type {(ClubPage | null)[]} */ (pages)) {
    const row = page && page.standings.find((r) => r.player === me.player);
    if (page && row) ratings.push(el("li", "", t("you.rating_in", { club: page.name, rating: ratingText(row.rating) })));
  }
  fillList("you-ratings", ratings);
}

/** Save the name: the first time, this makes the player; then it renames them. */
async function rename() {
  const input = byId("name", HTMLInputElement);
  const name = input.value.trim();
  if (!name) {
    input.focus();
    throw formError(t("error.name_required"));
  }
  localStorage.setItem(NAME_KEY, name);
  if (playerKey()) {
    await asPlayer("PATCH", "/api/players/me", { name });
  } else {
    await ensurePlayer(name);
  }
  say(t("you.renamed", { name }));
  await showYou();
}

async function makeClub() {
  const input = byId("club-name", HTMLInputElement);
  const name = input.value.trim();
  if (!name) {
    input.focus();
    throw formError(t("you.club_name_required"));
  }
  const made = await asPlayer("POST", "/api/clubs", { name });
  location.assign(made.url);
}

async function deviceCode() {
  const answer = await asPlayer("POST", "/api/players/me/device-code");
  byId("you-code").textContent = t("you.code_is", {
    code: answer.code, minutes: Math.round(answer.expires_in / 60) });
}

async function claim() {
  const input = byId("claim-code", HTMLInputElement);
  const code = input.value.trim().toUpperCase();
  if (!code) {
    input.focus();
    throw formError(t("you.code_required"));
  }
  savePlayer(await api("POST", "/api/players/claim", { code }));
  input.value = "";
  byId("name", HTMLInputElement).value = "";
  await showYou();
  say(t("you.claimed"));
}

async function exportData() {
  const data = await asPlayer("GET", "/api/players/me/export");
  downloadJson(data, "amerikaner-my-data.json");
}

/** @param {boolean} open */
function deleteQuestion(open) {
  byId("you-delete-confirm").hidden = !open;
  const button = document.querySelector(open ? "button[data-action='delete-confirm']"
    : "button[data-action='delete']");
  if (button instanceof HTMLElement) button.focus();
}

async function deleteMe() {
  await asPlayer("DELETE", "/api/players/me");
  forgetPlayer();
  byId("you-delete-confirm").hidden = true;
  byId("you-player").hidden = true;
  byId("home-error").textContent = t("you.deleted");
}

/** The panel's actions, for the page's one click listener (main.js). */
export const youActions = {
  rename,
  "make-club": makeClub,
  "device-code": deviceCode,
  claim,
  export: exportData,
  delete: async () => deleteQuestion(true),
  "delete-cancel": async () => deleteQuestion(false),
  "delete-confirm": deleteMe,
};
