// @ts-check
// The club page's finished matches (issue 38): each with its score sheet, each player's
// rating change, par beside each deal's result (docs/clubs.md, "Par": made in the
// background, "…" until it comes), where each player beat par most, and the match's
// `Download record`, `Replay` (both from the club's stored record: they work after the
// room is gone) and a link to its table (whose page says so once the room is gone). The
// buttons carry `data-action`: the page (clubpage.js) does what they ask.

import { formatSigned, t } from "./i18n.js";
import { byId, drawUnlessSame, el, simpleTable } from "./dom.js";
import { signed } from "./format.js";
import { runningTotals } from "./scores.js";
import { scoreTable } from "./scoresheet.js";
import { clubRoomLink } from "./roomgone.js";

/** @typedef {import("./protocol.js").ClubPage} ClubPage */
/** @typedef {import("./protocol.js").ClubMatch} ClubMatch */
/** @typedef {import("./protocol.js").MatchSeat} MatchSeat */

/** True while a deal of a match shown waits for its par.
 * @param {ClubPage} page */
export function waitsForPar(page) {
  return page.matches.some((m) => (m.deals || []).some((d) => d.par === null));
}

/** Each deal's real result beside its par, by seat, and where each player beat par most.
 * @param {ClubMatch} m
 * @param {string[]} names
 * @param {string} title
 * @returns {HTMLElement | null} */
function parTable(m, names, title) {
  const deals = m.deals;
  if (!Array.isArray(deals) || !deals.length) return null;
  const part = el("div", "par");
  part.append(el("p", "hint", t("club.par_about")));
  const box = el("div", "score-wrap par-wrap");
  part.append(box);
  // (points and par with the same sign: "-10 / -8.7", as the score sheet writes points)
  const rows = deals.map((d) => [String(d.row + 1), ...d.points.map((p, s) =>
    d.par ? t("club.par_cell", { points: signed(p), par: formatSigned(d.par[s] ?? 0) })
      : t("club.par_pending", { points: signed(p) }))]);
  const table = simpleTable([t("scores.deal"), ...names], rows, "club-table");
  table.setAttribute("aria-label", t("club.par_of", { title }));
  // (wider than a phone: it scrolls sideways, so its box is reachable by keyboard)
  box.tabIndex = 0;
  box.setAttribute("role", "region");
  box.setAttribute("aria-label", t("club.par_of", { title }));
  box.append(table);
  const best = (m.best_vs_par || []).flatMap((deal, s) => {
    const found = deal === null ? undefined : deals.find((d) => d.deal === deal);
    return found ? [t("club.best_of", { name: names[s] ?? "", n: found.row + 1 })] : [];
  });
  if (best.length) part.append(el("p", "hint", t("club.best_vs_par", { list: best.join(", ") })));
  return part;
}

/** A seat's name as the page writes it: a bot's in the page's language (the record names
 *  a bot's seat "Bot 3" whatever the language, as the room's frames do: table.js).
 * @param {MatchSeat} seat
 * @param {number} index */
function seatName(seat, index) {
  const bot = seat.player === null && seat.name === `Bot ${index + 1}`;
  return bot ? t("seat.bot", { n: index + 1 }) : seat.name;
}

/**
 * @param {ClubMatch} m
 * @param {string} club the club's id */
function matchPart(m, club) {
  const part = el("article", "club-match");
  const names = m.seats.map(seatName);
  const title = t("club.match_title", { code: m.room, n: m.match,
    date: new Date(m.finished_at * 1000).toLocaleDateString(document.documentElement.lang) });
  part.append(el("h3", "", title));
  // (five seats with long names are wider than a phone: the sheet scrolls sideways in a
  // box of its own, reachable by keyboard, as the par table's)
  const sheet = el("div", "score-wrap");
  sheet.tabIndex = 0;
  sheet.setAttribute("role", "region");
  sheet.setAttribute("aria-label", t("club.sheet_of", { title }));
  sheet.append(scoreTable(names, m.score_sheet, runningTotals(m.score_sheet, names.length),
    m.totals, { label: t("club.sheet_of", { title }) }));
  part.append(sheet);
  if (m.rating_changes) {
    const changes = m.rating_changes.flatMap((c, s) => c === null ? []
      : [t("club.change_of", { name: names[s], change: formatSigned(c) })]);
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
  const table = el("a", "", t("club.open_table"));
  // (the room may be gone: its page then says so, with a way back here: roomgone.js)
  table.href = clubRoomLink(m.room, club);
  table.setAttribute("aria-label", `${t("club.open_table")}: ${title}`);
  actions.append(button("record", t("club.download_record")), button("replay", t("club.replay")),
    table);
  part.append(actions);
  return part;
}

/** The season's finished matches in #club-matches.
 * @param {ClubPage} page */
export function showMatches(page) {
  const matches = page.matches.map((m) => matchPart(m, page.club));
  // (a match waiting for par has the page asked for again every few seconds: an equal
  // drawing keeps its buttons, so a tap on them is not lost to the redraw)
  drawUnlessSame(byId("club-matches"), matches.length ? matches : [el("p", "hint", t("club.no_matches"))]);
}
