// @ts-check
// The score sheet: deal by deal with running totals, and a small line chart of the
// totals drawn as inline SVG (attributes only: no inline styles under the CSP).

import { t } from "./i18n.js";
import { seatName } from "./table.js";
import { byId, drawUnlessSame, el, keptOpen } from "./dom.js";
import { shortName, signed } from "./format.js";
import { labelPositions, runningTotals, tieOffsets } from "./scores.js";
import { Phase } from "./protocol.js";

/** @typedef {import("./protocol.js").View} View */
/** @typedef {((match: import("./protocol.js").MatchSummary) => HTMLElement | null) | null} Extra */

const SVG_NS = "http://www.w3.org/2000/svg";

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs */
function svg(tag, attrs) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** A score sheet's table: a row a deal (running totals, the deal's points below them)
 *  and the totals; named by the section's heading (`labelledBy`) or by `label`.
 *  A late joiner's column (`from[s]` > 0) says from which deal they play, and the rows
 *  before are the bot's: faded, each cell naming the bot to a screen reader, with a note
 *  under the table.  The totals stay the seat's, the bot's points in them.
 * @param {string[]} names the players, by seat
 * @param {number[][]} sheet each deal's points
 * @param {number[][]} totals the running totals after each deal
 * @param {number[]} finals the match's totals
 * @param {{ labelledBy?: string, label?: string }} name
 * @param {{ match: number, deals: number[] | null } | null} [replay] a Replay button a row
 *   (for the room's players): the deals' indices in the match, or null (an earlier match:
 *   the row's place among the deals played out says which)
 * @param {readonly number[]} [from] by seat, the row (0-based) its player plays from */
function table(names, sheet, totals, finals, name, replay = null, from = []) {
  const tableEl = el("table", "score-table");
  // The current sheet is named by the section's heading, so "Score sheet" is written once.
  if (name.labelledBy) tableEl.setAttribute("aria-labelledby", name.labelledBy);
  if (name.label) tableEl.setAttribute("aria-label", name.label);
  tableEl.setAttribute("aria-describedby", "scores-about");
  const head = el("thead");
  const hr = el("tr");
  const corner = el("th", "", t("scores.deal"));
  corner.scope = "col";
  hr.append(corner);
  /** @param {number} s */
  const joinedAt = (s) => Math.min(from[s] ?? 0, sheet.length);
  names.forEach((player, s) => {
    const th = el("th", "", player);
    th.scope = "col";
    // A word too long for a phone's column may break inside (table.css); others never.
    if (/\S{10,}/.test(player)) th.classList.add("long-name");
    if (joinedAt(s) > 0) th.append(el("span", "joined", t("scores.from_deal", { n: joinedAt(s) + 1 })));
    hr.append(th);
  });
  head.append(hr);
  const body = el("tbody");
  sheet.forEach((points, i) => {
    const tr = el("tr");
    const th = el("th", "", replay ? "" : String(i + 1));
    th.scope = "row";
    if (replay) {
      th.append(replayButton(replay.match, replay.deals ? replay.deals[i] ?? null : null, i));
      th.setAttribute("aria-label", String(i + 1));  // the row is named by its number alone
    }
    tr.append(th);
    points.forEach((p, s) => {
      const td = el("td", "", String(totals[i]?.[s] ?? 0));
      td.append(el("span", "delta", signed(p)));
      if (i < joinedAt(s)) {  // the bot's deal, before the seat's person joined
        td.classList.add("by-bot");
        td.prepend(el("span", "sr-only", t("scores.played_by", { bot: t("seat.bot", { n: s + 1 }) }) + " "));
      }
      if (i > 0 && i === joinedAt(s)) td.classList.add("joined-here");  // their first deal
      tr.append(td);
    });
    body.append(tr);
  });
  const foot = el("tfoot");
  const fr = el("tr");
  const total = el("th", "", t("scores.total"));
  total.scope = "row";
  fr.append(total);
  for (const score of finals) fr.append(el("td", "", String(score)));
  foot.append(fr);
  tableEl.append(head, body, foot);
  const wrap = el("div", "score-wrap");
  wrap.append(tableEl);
  names.forEach((player, s) => {
    if (joinedAt(s) > 0) {
      wrap.append(el("p", "hint joined-note", t("scores.joined",
        { name: player, n: joinedAt(s) + 1, bot: t("seat.bot", { n: s + 1 }) })));
    }
  });
  return wrap;
}

/** A finished match's score sheet outside its room (the club page, clubpage.js). */
export const scoreTable = table;

/** A row's deal number as a button that opens its replay ("Replay deal 3").
 * @param {number} match
 * @param {number | null} deal the deal's index in the match, if known
 * @param {number} row the row's place among the deals played out */
function replayButton(match, deal, row) {
  const b = el("button", "replay-row");
  b.type = "button";
  b.dataset.action = "replay";
  b.dataset.match = String(match);
  if (deal !== null) b.dataset.deal = String(deal);
  else b.dataset.scored = String(row);
  b.setAttribute("aria-label", t("replay.open", { n: row + 1 }));
  b.append(String(row + 1), el("span", "replay-row-icon", "\u25B8"));
  b.lastElementChild?.setAttribute("aria-hidden", "true");
  return b;
}

// Each line has its own dash pattern and marker, so that lines stay apart without colour.
const DASHES = ["", "7 4", "2 3", "9 3 2 3", "4 2"];
const MARKERS = ["circle", "square", "triangle", "diamond", "cross"];

/**
 * @param {string} kind
 * @param {number} cx
 * @param {number} cy
 * @param {number} s */
function marker(kind, cx, cy, s) {
  const r = 3.2;
  if (kind === "circle") return svg("circle", { cx, cy, r, class: `mark s${s}` });
  if (kind === "square") return svg("rect", { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, class: `mark s${s}` });
  /** @type {[number, number][]} */
  const pts = kind === "triangle"
    ? [[cx, cy - r - 1], [cx + r + 1, cy + r], [cx - r - 1, cy + r]]
    : kind === "diamond"
      ? [[cx, cy - r - 1], [cx + r + 1, cy], [cx, cy + r + 1], [cx - r - 1, cy]]
      : [[cx - r, cy - r], [cx + r, cy + r], [cx, cy], [cx + r, cy - r], [cx - r, cy + r], [cx, cy]];
  const points = pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" ");
  return svg(kind === "cross" ? "polyline" : "polygon", { points, class: `mark s${s}${kind === "cross" ? " cross" : ""}` });
}

/**
 * @param {View} view
 * @param {number[][]} totals
 * @param {string[] | null} [names] */
function chart(view, totals, names = null) {
  const players = totals[0] ? totals[0].length : view.players;
  /** @param {number} s */
  const nameOf = (s) => (names ? names[s] ?? "" : seatName(view, s));
  /** @param {number} s */
  const dash = (s) => DASHES[s] ?? "";
  /** @param {number} s */
  const markerKind = (s) => MARKERS[s % MARKERS.length] ?? "circle";
  const w = 340;
  const h = 170;
  const pad = { l: 28, r: 78, t: 10, b: 14 };
  /** @type {number[][]} */
  const series = [new Array(players).fill(0), ...totals];
  /** @param {number} i @param {number} s */
  const value = (i, s) => series[i]?.[s] ?? 0;
  const values = series.flat();
  const top = Math.max(10, ...values);
  const bottom = Math.min(0, ...values);
  /** @param {number} i */
  const x = (i) => pad.l + (i * (w - pad.l - pad.r)) / Math.max(1, series.length - 1);
  /** @param {number} v */
  const y = (v) => pad.t + ((top - v) * (h - pad.t - pad.b)) / (top - bottom || 1);
  const root = svg("svg", { viewBox: `0 0 ${w} ${h}`, class: "chart", role: "img" });
  root.setAttribute("aria-label", t("scores.chart_label"));
  root.append(svg("line", { x1: pad.l, y1: pad.t, x2: pad.l, y2: h - pad.b, class: "axis" }));
  root.append(svg("line", { x1: pad.l, y1: y(0), x2: w - pad.r, y2: y(0), class: "zero" }));
  for (const v of [top, 0, bottom].filter((v, i, a) => a.indexOf(v) === i)) {
    const label = svg("text", { x: pad.l - 4, y: y(v) + 3, "text-anchor": "end", class: "label" });
    label.textContent = String(v);
    root.append(label);
  }
  const offsets = series.map(tieOffsets);
  /** @param {number} i @param {number} s */
  const py = (i, s) => y(value(i, s)) + (offsets[i]?.[s] ?? 0);
  const last = series.length - 1;
  for (let s = 0; s < players; s++) {
    const points = series.map((_, i) => `${x(i).toFixed(1)},${py(i, s).toFixed(1)}`).join(" ");
    const line = svg("polyline", { points, class: `line s${s}` });
    if (dash(s)) line.setAttribute("stroke-dasharray", dash(s));
    line.dataset.seat = String(s);
    root.append(line);
    for (let i = 1; i <= last; i++) root.append(marker(markerKind(s), x(i), py(i, s), s));
  }
  const ends = labelPositions((series[last] || []).map((_, s) => py(last, s)), 11, pad.t + 4, h - 2);
  for (let s = 0; s < players; s++) {
    const label = svg("text", { x: x(last) + 8, y: (ends[s] ?? 0) + 3.5, class: `end-label s${s}` });
    label.textContent = `${shortName(nameOf(s))} ${value(last, s)}`;
    root.append(label);
  }
  const legend = el("ul", "legend");
  for (let s = 0; s < players; s++) {
    const li = el("li");
    const key = svg("svg", { viewBox: "0 0 28 10", class: "legend-key", "aria-hidden": "true" });
    const sample = svg("line", { x1: 1, y1: 5, x2: 27, y2: 5, class: `line s${s}` });
    if (dash(s)) sample.setAttribute("stroke-dasharray", dash(s));
    key.append(sample, marker(markerKind(s), 14, 5, s));
    li.append(key, document.createTextNode(nameOf(s)));
    legend.append(li);
  }
  const figure = el("figure", "chart-figure");
  figure.append(root, legend);
  return figure;
}

let historyOpen = false;

/** The room's earlier matches (view.room.history), newest first, but for the match the
 * sheet above still shows (issue 39: at a match's end it is in the history already, and
 * was listed twice, as the current sheet and as `Earlier matches (1)`).
 * @param {View} view
 * @returns {import("./protocol.js").MatchSummary[]} */
export function earlierMatches(view) {
  const shown = view.phase !== Phase.LOBBY && (view.score_sheet || []).length
    ? view.room.match_number : null;
  return (view.room.history || []).filter((m) => m.number !== shown).reverse();
}

/** The earlier matches' panel (earlierMatches).
 * @param {View} view
 * @param {Extra} extra */
function history(view, extra) {
  const matches = earlierMatches(view);
  const seated = view.room.your_seat !== null && view.room.your_seat !== undefined;
  if (!matches.length) return null;
  const box = el("details", "match-history");
  const summary = el("summary", "", t("scores.history", { n: matches.length }));
  keptOpen(box, summary, historyOpen, (open) => { historyOpen = open; }, "match-history");
  box.append(summary);
  for (const match of matches) {
    const part = el("section", "history-match");
    const winners = match.winners.map((s) => match.players[s]).join(", ");
    part.append(el("h3", "", t("scores.match", { n: match.number })));
    part.append(el("p", "", t("scores.match_winners", { names: winners })));
    const list = el("ul", "history-totals");
    match.players.forEach((name, s) => list.append(
      el("li", "", t("line.label_value", { label: name, value: String(match.totals[s]) }))));
    part.append(list);
    if (match.score_sheet.length) {
      const totals = runningTotals(match.score_sheet, match.players.length);
      part.append(table(match.players, match.score_sheet, totals, match.totals,
        { label: t("scores.match_sheet", { n: match.number }) },
        seated ? { match: match.number, deals: null } : null, match.from_deal));
      part.append(chart(view, totals, match.players));
    }
    const more = extra ? extra(match) : null;  // the deals' review buttons (reviewlist.js)
    if (more) part.append(more);
    if (seated) {
      const download = el("button", "", t("scores.match_download", { n: match.number }));
      download.type = "button";
      download.dataset.action = "download";
      download.dataset.match = String(match.number);
      part.append(download);
    }
    box.append(part);
  }
  return box;
}

/** @param {View} view
 * @param {Extra} [extra] what an earlier match's part adds after its sheet */
export function renderScoreSheet(view, extra = null) {
  const section = byId("scores");
  const box = byId("score-sheet");
  const sheet = view.score_sheet || [];
  const past = history(view, extra);
  section.hidden = view.phase === Phase.LOBBY && !sheet.length && !past;
  // What every sheet's table holds, said once for all of them (their aria-describedby).
  const about = el("p", "sr-only", t("scores.caption"));
  about.id = "scores-about";
  /** @type {Element[]} */
  const parts = [about];
  if (!sheet.length || view.phase === Phase.LOBBY) parts.push(el("p", "hint", t("scores.none")));
  else {
    const totals = runningTotals(sheet, view.players);
    const names = Array.from({ length: view.players }, (_, s) => seatName(view, s));
    const seated = view.room.your_seat !== null && view.room.your_seat !== undefined;
    const deals = view.room.reviewable;  // the deals played out: the sheet's rows
    const replay = seated && deals.length === sheet.length
      ? { match: view.room.match_number, deals } : null;
    const from = view.room.seats.map((info) => info.from_deal ?? 0);
    parts.push(table(names, sheet, totals, view.scores, { labelledBy: "scores-heading" }, replay,
      from),
      chart(view, totals));
  }
  if (past) parts.push(past);
  drawUnlessSame(box, parts);
}
