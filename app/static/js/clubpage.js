// @ts-check
// The club page, /c/{club} (issue 38): the page holds no club data; it asks
// GET /api/clubs/{club} with the player's key (player.js), so a stranger reads only
// "no such club". A link with ?invite=I joins first (making the player if this browser
// has none). Members read the season's standings, the finished matches with their
// score sheets, records and replays (with a review of their own play), the members and
// the invite; they open a new table of the club; the host renews the invite, sets the
// new tables' rules and opens the next season. Par (made in the background) is asked
// for again until it comes. The parts it draws: the standings (clubstandings.js), the
// matches with their par (clubmatches.js), a match's replay and reviews
// (clubreplay.js), the invite and the host's controls (clubhost.js).

import { ApiError, api, errorMessage, saveToken } from "./net.js";
import { asPlayer, ensurePlayer, playerKey } from "./player.js";
import { setUpPage } from "./page.js";
import { t } from "./i18n.js";
import { byId, downloadJson, el } from "./dom.js";
import { replayMatch } from "./clubreplay.js";
import { showStandings } from "./clubstandings.js";
import { showMatches, waitsForPar } from "./clubmatches.js";
import { hostActions, presetLabels, showHostParts } from "./clubhost.js";

/** @typedef {import("./protocol.js").ClubPage} ClubPage */

const NAME_KEY = "amerikaner.name";
const club = decodeURIComponent(location.pathname.split("/")[2] || "");
const base = `/api/clubs/${encodeURIComponent(club)}`;
/** @type {ClubPage | null} */
let shown = null;
// Par is made in the background after a match (docs/clubs.md, "Par"): while a deal shown
// waits for its par the page asks again this often, redrawing only the standings and
// the matches (not the forms a host may be filling in).
const PAR_POLL_MS = 4000;
let parTimer = 0;

/** @param {string} text */
function showError(text) {
  byId("club-error").textContent = text;
}

/** @param {string} text */
function status(text) {
  const box = byId("club-status");
  box.removeAttribute("data-i18n");  // (a language change must not bring "Loading…" back)
  box.textContent = text;
}

/** The join form: a link's invite filled in, the name this browser used last.
 * @param {string} invite */
function showJoin(invite) {
  byId("club-join").hidden = false;
  byId("club-body").hidden = true;
  byId("join-invite", HTMLInputElement).value = invite;
  const name = byId("join-name", HTMLInputElement);
  if (!name.value) name.value = localStorage.getItem(NAME_KEY) || "";
  name.closest("label")?.toggleAttribute("hidden", Boolean(playerKey()));
}

/** @param {number | null} season */
async function load(season = null) {
  status(t("club.loading"));
  try {
    const query = season === null ? "" : `?season=${season}`;
    show(await asPlayer("GET", base + query));
    status("");
  } catch (error) {
    status("");
    if (error instanceof ApiError && (error.status === 404 || error.status === 401)) {
      byId("club-title").textContent = t("club.heading");
      showError(t("club.not_found"));
      showJoin("");
    } else {
      showError(errorMessage(error));
    }
  }
}

/** @param {ClubPage} page */
function show(page) {
  shown = page;
  byId("club-join").hidden = true;
  byId("club-body").hidden = false;
  showError("");
  const title = byId("club-title");
  title.removeAttribute("data-i18n");  // the club's name, not the word "Club", from now on
  title.textContent = page.name;
  document.title = `${page.name} \u2013 Amerikaner`;
  const seasons = byId("club-season", HTMLSelectElement);
  seasons.replaceChildren(...page.seasons.map((s) => {
    const option = el("option", "", t(s.season === page.current_season ? "club.season_current" : "club.season_n", { n: s.season }));
    if (option instanceof HTMLOptionElement) option.value = String(s.season);
    return option;
  }));
  seasons.value = String(page.season);
  showStandings(page);
  showMatches(page);
  watchPar(page);
  byId("club-members").replaceChildren(...page.members.map((m) =>
    el("li", "", m.host ? t("club.host_member", { name: m.name }) : m.name)));
  showHostParts(club, page);
}

/** While a match shown waits for par, ask for the page again in a while.
 * @param {ClubPage} page */
function watchPar(page) {
  clearTimeout(parTimer);
  if (!waitsForPar(page)) return;
  parTimer = window.setTimeout(async () => {
    try {
      /** @type {ClubPage} */
      const fresh = await asPlayer("GET", `${base}?season=${page.season}`);
      if (shown !== page) return;  // another season (or load) since: it is not ours
      shown = fresh;
      showStandings(fresh);
      showMatches(fresh);
      watchPar(fresh);
    } catch {
      // (the page stays as it is; a reload asks again)
    }
  }, PAR_POLL_MS);
}

async function join() {
  const invite = byId("join-invite", HTMLInputElement).value.trim();
  const nameInput = byId("join-name", HTMLInputElement);
  const name = nameInput.value.trim();
  if (!playerKey() && !name) {
    nameInput.focus();
    throw new ApiError(0, "form", t("error.name_required"));
  }
  if (name) localStorage.setItem(NAME_KEY, name);
  await ensurePlayer(name);
  await asPlayer("POST", `${base}/join`, { invite });
  await load();
}

async function newTable() {
  const me = await asPlayer("GET", "/api/players/me");
  const room = await api("POST", "/api/rooms", { name: me.name, club }, playerKey() ?? undefined);
  saveToken(room.room, room.token);
  location.assign(room.url || `/r/${room.room}`);
}

/** @param {HTMLElement} b */
async function downloadRecord(b) {
  const record = await asPlayer("GET", `${base}/record?room=${encodeURIComponent(b.dataset.room ?? "")}&match=${b.dataset.match}`);
  downloadJson(record, `amerikaner-${b.dataset.room}-${b.dataset.match}.json`);
}

/** @type {Record<string, (b: HTMLElement) => Promise<void>>} */
const actions = {
  "join-club": join,
  "new-table": newTable,
  record: downloadRecord,
  replay: (b) => replayMatch(club, b, () => shown?.matches.find((m) =>
    m.room === b.dataset.room && String(m.match) === b.dataset.match), showError),
  ...hostActions(club, () => load()),
};

async function init() {
  byId("content").addEventListener("click", async (event) => {
    const target = event.target;
    const button = target instanceof Element ? target.closest("button[data-action]") : null;
    if (!(button instanceof HTMLButtonElement)) return;
    const action = actions[button.dataset.action ?? ""];
    if (!action) return;
    showError("");
    button.disabled = true;
    try {
      await action(button);
    } catch (error) {
      showError(errorMessage(error));
    } finally {
      button.disabled = false;
    }
  });
  byId("club-season", HTMLSelectElement).addEventListener("change", () => {
    load(Number(byId("club-season", HTMLSelectElement).value));
  });
  // The invite leaves the address bar at once (it would stay in the history otherwise).
  const params = new URLSearchParams(location.search);
  const invite = params.get("invite");
  if (invite !== null) history.replaceState(null, "", location.pathname);
  await setUpPage();
  presetLabels();
  document.addEventListener("languagechange", () => {
    presetLabels();
    if (shown) show(shown);
  });
  if (invite && playerKey()) {
    try {
      await asPlayer("POST", `${base}/join`, { invite });
    } catch (error) {
      showError(errorMessage(error));
    }
    await load();
  } else if (invite) {
    status("");
    showJoin(invite);
  } else {
    await load();
  }
}

init();
