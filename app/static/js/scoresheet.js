// The score sheet: deal by deal with running totals, and a small line chart of the
// totals drawn as inline SVG (attributes only: no inline styles under the CSP).

import { t } from "./i18n.js";
import { seatName } from "./table.js";
import { el, signed } from "./dom.js";

const SVG_NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

function runningTotals(sheet, players) {
  const totals = [];
  let running = new Array(players).fill(0);
  for (const points of sheet) {
    running = running.map((v, i) => v + points[i]);
    totals.push(running);
  }
  return totals;
}

function table(view, sheet, totals) {
  const tableEl = el("table", "score-table");
  // Named by the section's heading, so "Score sheet" is written once on the page.
  tableEl.setAttribute("aria-labelledby", "scores-heading");
  tableEl.setAttribute("aria-describedby", "scores-about");
  const head = el("thead");
  const hr = el("tr");
  const corner = el("th", "", t("scores.deal"));
  corner.scope = "col";
  hr.append(corner);
  for (let s = 0; s < view.players; s++) {
    const th = el("th", "", seatName(view, s));
    th.scope = "col";
    hr.append(th);
  }
  head.append(hr);
  const body = el("tbody");
  sheet.forEach((points, i) => {
    const tr = el("tr");
    const th = el("th", "", String(i + 1));
    th.scope = "row";
    tr.append(th);
    points.forEach((p, s) => {
      const td = el("td", "", String(totals[i][s]));
      td.append(el("span", "delta", signed(p)));
      tr.append(td);
    });
    body.append(tr);
  });
  const foot = el("tfoot");
  const fr = el("tr");
  const total = el("th", "", t("scores.total"));
  total.scope = "row";
  fr.append(total);
  for (let s = 0; s < view.players; s++) fr.append(el("td", "", String(view.scores[s])));
  foot.append(fr);
  tableEl.append(head, body, foot);
  const wrap = el("div", "score-wrap");
  const about = el("p", "sr-only", t("scores.caption"));
  about.id = "scores-about";
  wrap.append(about, tableEl);
  return wrap;
}

// Each line has its own dash pattern and marker, so that lines stay apart without colour.
const DASHES = ["", "7 4", "2 3", "9 3 2 3", "4 2"];
const MARKERS = ["circle", "square", "triangle", "diamond", "cross"];

function marker(kind, cx, cy, s) {
  const r = 3.2;
  if (kind === "circle") return svg("circle", { cx, cy, r, class: `mark s${s}` });
  if (kind === "square") return svg("rect", { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, class: `mark s${s}` });
  const pts = kind === "triangle"
    ? [[cx, cy - r - 1], [cx + r + 1, cy + r], [cx - r - 1, cy + r]]
    : kind === "diamond"
      ? [[cx, cy - r - 1], [cx + r + 1, cy], [cx, cy + r + 1], [cx - r - 1, cy]]
      : [[cx - r, cy - r], [cx + r, cy + r], [cx, cy], [cx + r, cy - r], [cx - r, cy + r], [cx, cy]];
  const points = pts.map(([a, b]) => `${a.toFixed(1)},${b.toFixed(1)}`).join(" ");
  return svg(kind === "cross" ? "polyline" : "polygon", { points, class: `mark s${s}${kind === "cross" ? " cross" : ""}` });
}

/** Lines with equal values at a point are drawn a little apart (2.5 px each). */
function tieOffsets(row) {
  const offsets = new Array(row.length).fill(0);
  const groups = new Map();
  row.forEach((v, s) => groups.set(v, [...(groups.get(v) || []), s]));
  for (const seats of groups.values()) {
    seats.forEach((s, i) => { offsets[s] = (i - (seats.length - 1) / 2) * 2.5; });
  }
  return offsets;
}

/** End-of-line labels, pushed apart so that none overlaps another and all stay between
 *  `low` and `high`. */
function labelPositions(ys, gap, low, high) {
  const order = ys.map((y, s) => ({ y, s })).sort((a, b) => a.y - b.y || a.s - b.s);
  order.forEach((o, i) => { o.y = Math.max(o.y, i ? order[i - 1].y + gap : low); });
  const last = order.length - 1;
  if (last >= 0 && order[last].y > high) {
    order[last].y = high;
    for (let i = last - 1; i >= 0; i--) order[i].y = Math.min(order[i].y, order[i + 1].y - gap);
  }
  const result = new Array(ys.length);
  for (const o of order) result[o.s] = o.y;
  return result;
}

function shortName(name) {
  return name.length > 11 ? `${name.slice(0, 10)}…` : name;
}

function chart(view, totals, names = null) {
  const players = totals.length ? totals[0].length : view.players;
  const nameOf = (s) => (names ? names[s] : seatName(view, s));
  const w = 340;
  const h = 170;
  const pad = { l: 28, r: 78, t: 10, b: 14 };
  const series = [new Array(players).fill(0), ...totals];
  const values = series.flat();
  const top = Math.max(10, ...values);
  const bottom = Math.min(0, ...values);
  const x = (i) => pad.l + (i * (w - pad.l - pad.r)) / Math.max(1, series.length - 1);
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
  const py = (i, s) => y(series[i][s]) + offsets[i][s];
  const last = series.length - 1;
  for (let s = 0; s < players; s++) {
    const points = series.map((row, i) => `${x(i).toFixed(1)},${py(i, s).toFixed(1)}`).join(" ");
    const line = svg("polyline", { points, class: `line s${s}` });
    if (DASHES[s]) line.setAttribute("stroke-dasharray", DASHES[s]);
    line.dataset.seat = String(s);
    root.append(line);
    for (let i = 1; i <= last; i++) root.append(marker(MARKERS[s % MARKERS.length], x(i), py(i, s), s));
  }
  const ends = labelPositions(series[last].map((_, s) => py(last, s)), 11, pad.t + 4, h - 2);
  for (let s = 0; s < players; s++) {
    const label = svg("text", { x: x(last) + 8, y: ends[s] + 3.5, class: `end-label s${s}` });
    label.textContent = `${shortName(nameOf(s))} ${series[last][s]}`;
    root.append(label);
  }
  const legend = el("ul", "legend");
  for (let s = 0; s < players; s++) {
    const li = el("li");
    const key = svg("svg", { viewBox: "0 0 28 10", class: "legend-key", "aria-hidden": "true" });
    const sample = svg("line", { x1: 1, y1: 5, x2: 27, y2: 5, class: `line s${s}` });
    if (DASHES[s]) sample.setAttribute("stroke-dasharray", DASHES[s]);
    key.append(sample, marker(MARKERS[s % MARKERS.length], 14, 5, s));
    li.append(key, document.createTextNode(nameOf(s)));
    legend.append(li);
  }
  const figure = el("figure", "chart-figure");
  figure.append(root, legend);
  return figure;
}

let historyOpen = false;

/** The room's earlier matches (view.room.history), newest first. */
function history(view) {
  const matches = (view.room.history || []).slice().reverse();
  if (!matches.length) return null;
  const box = el("details", "match-history");
  box.open = historyOpen;
  box.addEventListener("toggle", () => { historyOpen = box.open; });
  box.append(el("summary", "", t("scores.history", { n: matches.length })));
  for (const match of matches) {
    const part = el("section", "history-match");
    const winners = match.winners.map((s) => match.players[s]).join(", ");
    part.append(el("h3", "", t("scores.match", { n: match.number })));
    part.append(el("p", "", t("scores.match_winners", { names: winners })));
    const list = el("ul", "history-totals");
    match.players.forEach((name, s) => list.append(el("li", "", `${name}: ${match.totals[s]}`)));
    part.append(list);
    if (match.score_sheet.length) part.append(chart(view, runningTotals(match.score_sheet, match.players.length), match.players));
    box.append(part);
  }
  return box;
}

export function renderScoreSheet(view) {
  const section = document.getElementById("scores");
  const box = document.getElementById("score-sheet");
  const sheet = view.score_sheet || [];
  const past = history(view);
  section.hidden = view.phase === "lobby" && !sheet.length && !past;
  const parts = [];
  if (!sheet.length || view.phase === "lobby") parts.push(el("p", "hint", t("scores.none")));
  else {
    const totals = runningTotals(sheet, view.players);
    parts.push(table(view, sheet, totals), chart(view, totals));
  }
  if (past) parts.push(past);
  box.replaceChildren(...parts);
}
