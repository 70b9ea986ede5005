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

function chart(view, totals) {
  const w = 300;
  const h = 150;
  const pad = { l: 28, r: 8, t: 8, b: 18 };
  const series = [new Array(view.players).fill(0), ...totals];
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
  for (let s = 0; s < view.players; s++) {
    const points = series.map((row, i) => `${x(i).toFixed(1)},${y(row[s]).toFixed(1)}`).join(" ");
    root.append(svg("polyline", { points, class: `line s${s}` }));
    const last = series.length - 1;
    root.append(svg("circle", { cx: x(last), cy: y(series[last][s]), r: 3, class: `s${s}` }));
  }
  const legend = el("ul", "legend");
  for (let s = 0; s < view.players; s++) {
    const li = el("li");
    li.append(el("span", `swatch s${s}`), document.createTextNode(seatName(view, s)));
    legend.append(li);
  }
  const figure = el("figure", "chart-figure");
  figure.append(root, legend);
  return figure;
}

export function renderScoreSheet(view) {
  const section = document.getElementById("scores");
  const box = document.getElementById("score-sheet");
  const sheet = view.score_sheet || [];
  section.hidden = view.phase === "lobby" && !sheet.length;
  if (!sheet.length) {
    box.replaceChildren(el("p", "hint", t("scores.none")));
    return;
  }
  const totals = runningTotals(sheet, view.players);
  box.replaceChildren(table(view, sheet, totals), chart(view, totals));
}
