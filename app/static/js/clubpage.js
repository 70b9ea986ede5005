// @ts-check
// The club page, /c/{club} (issue 38): the page holds no club data; it asks
// GET /api/clubs/{club} with the player's key (player.js), so a stranger reads only
// "no such club". A link with ?invite=I joins first (making the player if this browser
// has none). Members read the season's standings, the finished matches with their
// score sheets, records and replays, the members and the invite; they open a new table
// of the club; the host renews the invite, sets the new tables' rules and opens the
// next season. Par (made in the background) is asked for again until it comes; a
// match's replay marks who beat par most (parmarks.js).

import { ApiError, api, errorMessage, saveToken } from "./net.js";
import { asPlayer, ensurePlayer, playerKey } from "./player.js";
import { setUpPage } from "./page.js";
import { formatNumber, t } from "./i18n.js";
import { byId, downloadJson, el } from "./dom.js";
import { signed } from "./format.js";
import { runningTotals } from "./scores.js";
import { scoreTable } from "./scoresheet.js";
import { showReplay } from "./replay.js";
import { markBestVsPar } from "./parmarks.js";
import { ratingText } from "./you.js";

/** @typedef {import("./protocol.js").ClubPage} ClubPage */
/** @typedef {import("./protocol.js").ClubMatch} ClubMatch */
/** @typedef {import("./protocol.js").StandingsRow} StandingsRow */

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
/** The marks of the replay shown: ended when another is shown.
 * @type {AbortController | null} */
let replayMarks = null;

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

/** One decimal, in the page's language: 1.5, "1,5".
 * @param {number} n */
function decimal(n) {
  return formatNumber(Math.round(n * 10) / 10);
}

/** @param {number} n */
function signedDecimal(n) {
  const text = decimal(Math.abs(n));
  return n > 0 ? `+${text}` : n < 0 ? `\u2212${text}` : text;
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

/** @param {string[]} headings
 * @param {string[][]} rows
 * @param {string} labelledBy */
function simpleTable(headings, rows, labelledBy) {
  const table = el("table", "club-table");
  table.setAttribute("aria-labelledby", labelledBy);
  const head = el("tr");
  for (const h of headings) {
    const th = el("th", "", h);
    th.scope = "col";
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const row of rows) {
    const tr = el("tr");
    row.forEach((cell, i) => {
      const c = el(i === 0 ? "th" : "td", "", cell);
      if (c instanceof HTMLTableCellElement && i === 0) c.scope = "row";
      tr.append(c);
    });
    tbody.append(tr);
  }
  table.append(thead, tbody);
  return table;
}

/** @param {StandingsRow} row */
function aboveParCell(row) {
  // null: none of the player's deals has a par yet
  const above = /** @type {{ above_par_per_deal?: number | null }} */ (row).above_par_per_deal;
  return typeof above === "number" ? signedDecimal(above) : "\u2013";
}

/** @param {ClubPage} page */
function standings(page) {
  // Par (with branch clubpar's answer): the points above par a deal, a column of its own.
  const withPar = page.standings.some((r) => "above_par_per_deal" in r);
  const headings = ["club.player", "club.matches_played", "club.wins", "club.deals",
    "club.points", "club.points_per_deal", "club.as_bidder", "club.as_partner",
    "club.amerikaner_bids", "club.rating"].map((k) => t(k));
  if (withPar) headings.push(t("club.above_par"));
  const rows = page.standings.map((r) => {
    const cells = [r.name, String(r.matches), String(r.wins), String(r.deals),
      String(r.points), decimal(r.points_per_deal),
      t("club.made_of", { made: r.bidder_made, n: r.bidder_deals }),
      t("club.made_of", { made: r.partner_made, n: r.partner_deals }),
      String(r.amerikaner_bids), ratingText(r.rating)];
    if (withPar) cells.push(aboveParCell(r));
    return cells;
  });
  const box = byId("club-standings");
  if (!rows.length) {
    box.replaceChildren(el("p", "hint", t("club.no_standings")));
  } else {
    box.replaceChildren(simpleTable(headings, rows, "standings-heading"));
  }
  // A table wider than a phone scrolls sideways: its box must be reachable by keyboard
  // (a region of its own, named apart from the section's "Standings").
  if (rows.length) {
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", t("club.standings_scroll"));
  } else {
    box.removeAttribute("tabindex");
    box.removeAttribute("role");
    box.removeAttribute("aria-label");
  }
  byId("club-bots").textContent = page.bot_levels.length
    ? t("club.bot_levels", { levels: page.bot_levels.map((b) => t("club.bot_level_rating", {
      level: t(`bot.${b.level}`), rating: ratingText(b.rating) })).join(", ") })
    : "";
}

/** Par (issue 38; the fields come with the club page's par, branch clubpar): each
 *  deal's real result beside what the strong bot scored on the same cards, by seat, and
 *  where each player beat par most.
 * @typedef {{ deal: number, row: number, points: number[], par: number[] | null }} DealPar */

/** @param {ClubMatch} m
 * @param {string[]} names
 * @param {string} title
 * @returns {HTMLElement | null} */
function parTable(m, names, title) {
  const withPar = /** @type {{ deals?: DealPar[], best_vs_par?: (number | null)[] }} */ (m);
  const deals = withPar.deals;
  if (!Array.isArray(deals) || !deals.length) return null;
  const part = el("div", "par");
  part.append(el("p", "hint", t("club.par_about")));
  const box = el("div", "score-wrap par-wrap");
  part.append(box);
  const rows = deals.map((d) => [String(d.row + 1), ...d.points.map((p, s) =>
    d.par ? t("club.par_cell", { points: signed(p), par: signedDecimal(d.par[s] ?? 0) })
      : t("club.par_pending", { points: signed(p) }))]);
  const table = simpleTable([t("scores.deal"), ...names], rows, "");
  table.removeAttribute("aria-labelledby");
  table.setAttribute("aria-label", t("club.par_of", { title }));
  // (wider than a phone: it scrolls sideways, so its box is reachable by keyboard)
  box.tabIndex = 0;
  box.setAttribute("role", "region");
  box.setAttribute("aria-label", t("club.par_of", { title }));
  box.append(table);
  const best = (withPar.best_vs_par || []).flatMap((deal, s) => {
    const found = deal === null ? undefined : deals.find((d) => d.deal === deal);
    return found ? [t("club.best_of", { name: names[s] ?? "", n: found.row + 1 })] : [];
  });
  if (best.length) part.append(el("p", "hint", t("club.best_vs_par", { list: best.join(", ") })));
  return part;
}

/** @param {ClubMatch} m */
function matchPart(m) {
  const part = el("article", "club-match");
  const names = m.seats.map((s) => s.name);
  const title = t("club.match_title", { code: m.room, n: m.match,
    date: new Date(m.finished_at * 1000).toLocaleDateString(document.documentElement.lang) });
  const heading = el("h3", "", title);
  part.append(heading);
  part.append(scoreTable(names, m.score_sheet, runningTotals(m.score_sheet, names.length),
    m.totals, { label: t("club.sheet_of", { title }) }));
  if (m.rating_changes) {
    const changes = m.rating_changes.flatMap((c, s) => c === null ? []
      : [t("club.change_of", { name: names[s], change: signedDecimal(c) })]);
    if (changes.length) part.append(el("p", "rating-changes", t("club.rating_changes", { changes: changes.join(", ") })));
  }
  const par = parTable(m, names, title);
  if (par) part.append(par);
  const actions = el("div", "actions");
  /** @param {string} action
   * @param {string} text */
  const button = (action, text) => {
    const b = el("button", "", text);
    b.setAttribute("type", "button");
    b.dataset.action = action;
    b.dataset.room = m.room;
    b.dataset.match = String(m.match);
    b.setAttribute("aria-label", `${text}: ${title}`);
    return b;
  };
  const record = button("record", t("club.download_record"));
  const replay = button("replay", t("club.replay"));
  const table = el("a", "", t("club.open_table"));
  if (table instanceof HTMLAnchorElement) table.href = `/r/${encodeURIComponent(m.room)}`;
  table.setAttribute("aria-label", `${t("club.open_table")}: ${title}`);
  actions.append(record, replay, table);
  part.append(actions);
  return part;
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
  for (const node of document.querySelectorAll(".host-only")) {
    if (node instanceof HTMLElement) node.hidden = !page.you_are_host;
  }
  const seasons = byId("club-season", HTMLSelectElement);
  seasons.replaceChildren(...page.seasons.map((s) => {
    const option = el("option", "", t(s.season === page.current_season ? "club.season_current" : "club.season_n", { n: s.season }));
    if (option instanceof HTMLOptionElement) option.value = String(s.season);
    return option;
  }));
  seasons.value = String(page.season);
  standings(page);
  showMatches(page);
  watchPar(page);
  byId("club-members").replaceChildren(...page.members.map((m) =>
    el("li", "", m.host ? t("club.host_member", { name: m.name }) : m.name)));
  byId("club-invite", HTMLInputElement).value = inviteLink(page.invite);
  const rules = page.rules || {};
  byId("club-preset", HTMLSelectElement).value = String(rules.preset || "standard");
  byId("club-single-round", HTMLInputElement).checked = rules.match === "single_deal";
}

/** @param {ClubPage} page */
function showMatches(page) {
  const matches = page.matches.map(matchPart);
  byId("club-matches").replaceChildren(...(matches.length ? matches : [el("p", "hint", t("club.no_matches"))]));
}

/** While a match shown waits for par, ask for the page again in a while.
 * @param {ClubPage} page */
function watchPar(page) {
  clearTimeout(parTimer);
  if (!page.matches.some((m) => (m.deals || []).some((d) => d.par === null))) return;
  parTimer = window.setTimeout(async () => {
    try {
      /** @type {ClubPage} */
      const fresh = await asPlayer("GET", `${base}?season=${page.season}`);
      if (shown !== page) return;  // another season (or load) since: it is not ours
      shown = fresh;
      standings(fresh);
      showMatches(fresh);
      watchPar(fresh);
    } catch {
      // (the page stays as it is; a reload asks again)
    }
  }, PAR_POLL_MS);
}

/** @param {string} invite */
function inviteLink(invite) {
  return `${location.origin}/c/${encodeURIComponent(club)}?invite=${encodeURIComponent(invite)}`;
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

/** Replay the match's deals from the club's record (the server replays it: POST
 *  /api/replay, as the replay page does with a file).
 * @param {HTMLElement} b */
async function replay(b) {
  const record = await asPlayer("GET", `${base}/record?room=${encodeURIComponent(b.dataset.room ?? "")}&match=${b.dataset.match}`);
  const view = byId("replay-view");
  /** @param {number | null} deal */
  const load = async (deal) => {
    const query = deal === null ? "" : `?deal=${deal}`;
    const steps = await api("POST", `/api/replay${query}`, record);
    view.hidden = false;
    showReplay(view, steps, { pickDeal: (d) => { load(d).catch((e) => showError(errorMessage(e))); } });
    // where a player beat par most, with the match as the page has it now (par may come
    // later: the page's newer answer is read at each drawing)
    replayMarks?.abort();
    replayMarks = new AbortController();
    const mark = () => {
      const m = shown?.matches.find((x) => x.room === b.dataset.room && String(x.match) === b.dataset.match);
      if (m) markBestVsPar(view, m, steps.deal);
    };
    mark();
    // (after the replay's own redraw in the new language, registered before this)
    document.addEventListener("languagechange", mark, { signal: replayMarks.signal });
  };
  await load(null);
  view.scrollIntoView({ block: "start" });
  const next = view.querySelector(".replay-nav button.primary");
  if (next instanceof HTMLElement) next.focus({ preventScroll: true });
}

async function copyInvite() {
  const link = byId("club-invite", HTMLInputElement).value;
  try {
    await navigator.clipboard.writeText(link);
    byId("club-invite-status").textContent = t("club.invite_copied");
  } catch {
    byId("club-invite").focus();
    byId("club-invite", HTMLInputElement).select();
    byId("club-invite-status").textContent = t("club.copy_this");
  }
}

async function renewInvite() {
  const answer = await asPlayer("POST", `${base}/invite`);
  byId("club-invite", HTMLInputElement).value = inviteLink(answer.invite);
  byId("club-invite-status").textContent = t("club.invite_renewed");
}

/** @param {boolean} open */
function seasonQuestion(open) {
  byId("season-confirm").hidden = !open;
  const b = document.querySelector(open ? "button[data-action='next-season-confirm']" : "button[data-action='next-season']");
  if (b instanceof HTMLElement) b.focus();
}

async function nextSeason() {
  await asPlayer("POST", `${base}/season`);
  byId("season-confirm").hidden = true;
  await load();
}

async function saveRules() {
  /** @type {Record<string, string>} */
  const rules = { preset: byId("club-preset", HTMLSelectElement).value };
  if (byId("club-single-round", HTMLInputElement).checked) rules.match = "single_deal";
  await asPlayer("PATCH", base, { rules });
  byId("club-rules-status").textContent = t("club.rules_saved");
}

/** @type {Record<string, (b: HTMLElement) => Promise<void>>} */
const actions = {
  "join-club": join,
  "new-table": newTable,
  record: downloadRecord,
  replay,
  "copy-invite": copyInvite,
  "renew-invite": renewInvite,
  "next-season": async () => seasonQuestion(true),
  "next-season-cancel": async () => seasonQuestion(false),
  "next-season-confirm": nextSeason,
  "save-rules": saveRules,
};

function presetLabels() {
  for (const option of byId("club-preset", HTMLSelectElement).options) {
    option.textContent = t(`preset.label.${option.value}`);
  }
}

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
