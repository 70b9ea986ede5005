// @ts-check
// The rules page's worked example: one deal from the auction to the score.  The deal and
// every fact about it (bids, cards, tricks won, points) come from GET /api/rules
// `example`, which the server plays through the engine (app/rooms/server/rules_example.py);
// the kitty's size from the preset's resolved rule set; only the words are this page's.

import { currentLanguage, t, tParts as parts } from "./i18n.js";
import { cardChip } from "./cards.js";
import { presetFigures } from "./lobby.js";
import { signed } from "./format.js";
import { byId, el } from "./dom.js";

/** @typedef {import("./rulesmeta.js").RulesMeta} RulesMeta */
/** @typedef {import("./rulesmeta.js").Example} Example */
/** @typedef {import("./i18n.js").Part} Part */

/** A list in the reader's language ("A, B and C") whose items may be nodes.
 * @param {Part[][]} items
 * @returns {Part[]} */
function listOf(items) {
  const marks = items.map((_, i) => `\u0000${i}\u0000`);
  const text = new Intl.ListFormat(currentLanguage(), { type: "conjunction" }).format(marks);
  return text.split(/\u0000(\d+)\u0000/).flatMap((piece, i) =>
    i % 2 === 0 ? [piece] : items[Number(piece)] || []);
}

/** @param {string[]} cards */
function chips(cards) {
  return listOf(cards.map((card) => [cardChip(card)]));
}

/**
 * @param {string} label
 * @param {Part[]} body */
function step(label, body) {
  const li = el("li");
  li.append(el("strong", "", `${label} `), ...body);
  return li;
}

/** @param {Example} ex */
function auctionStep(ex) {
  const name = (/** @type {number} */ seat) => ex.names[seat] ?? "";
  const bids = ex.auction.map((entry) => entry.bid === "pass"
    ? parts("rules.example.pass", { name: name(entry.seat) })
    : parts("rules.example.bid", { name: name(entry.seat), bid: String(entry.bid) }));
  return step(t("rules.example.auction_label"), [...listOf(bids), ". ",
    ...parts("rules.example.auction", { bidder: name(ex.bidder), bid: ex.bid })]);
}

/**
 * @param {Example} ex
 * @param {number} index */
function trickStep(ex, index) {
  const trick = ex.tricks[index];
  if (!trick) return el("li");
  const n = ex.names.length;
  const plays = trick.cards.map((card, i) => [`${ex.names[(trick.leader + i) % n]} `, cardChip(card)]);
  const body = parts("rules.example.trick", { plays: span(listOf(plays)), winner: ex.names[trick.winner] ?? "" });
  const winning = trick.cards[(trick.winner - trick.leader + n) % n] ?? "";
  const led = (trick.cards[0] ?? "").charAt(1);
  if (ex.call && trick.cards.includes(ex.call) && ex.partner !== null) {
    body.push(" ", ...parts("rules.example.revealed", { partner: ex.names[ex.partner] ?? "" }));
  } else if (winning.charAt(1) === ex.trump && led !== ex.trump) {
    body.push(" ", ...parts("rules.example.ruff", {
      winner: ex.names[trick.winner] ?? "", suit: t(`suit.${led}`) }));
  }
  return step(t("rules.example.trick_label", { n: index + 1 }), body);
}

/** @param {Example} ex */
function scoreTable(ex) {
  const table = el("table", "data-table");
  table.id = "example-score";
  table.append(el("caption", "", t("rules.example.score_caption")));
  const head = el("tr");
  for (const key of ["rules.example.col_player", "rules.example.col_tricks", "rules.example.col_points"]) {
    const th = el("th", "", t(key));
    th.scope = "col";
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  ex.names.forEach((name, seat) => {
    const tr = el("tr");
    tr.dataset.seat = String(seat);
    const th = el("th", "", name);
    th.scope = "row";
    tr.append(th, el("td", "", String(ex.tricks_won[seat])),
      el("td", "", signed(ex.points[seat] ?? 0)));
    tbody.append(tr);
  });
  table.append(thead, tbody);
  const scroll = el("div", "table-scroll");
  scroll.append(table);
  return scroll;
}

/** The sentence of the deal's outcome: made or failed, and with the kitty's trick only
 *  when the preset counts it (`kitty_trick`).
 * @param {Pick<Example, "made" | "kitty_trick">} ex */
export function resultKey(ex) {
  return `rules.example.${ex.made ? "made" : "failed"}${ex.kitty_trick ? "_kitty" : ""}`;
}

/** @param {RulesMeta} meta */
export function renderExample(meta) {
  const ex = meta.example;
  const box = byId("example-body");
  if (!ex) {
    box.replaceChildren();
    return;
  }
  const r = presetFigures(meta, ex.preset, ex.players);
  const name = (/** @type {number | null} */ seat) => seat === null ? "" : ex.names[seat] ?? "";
  const intro = el("p");
  intro.append(...parts("rules.example.intro", {
    preset: t(`preset.short.${ex.preset}`), players: ex.players,
    names: listOf(ex.names.map((n) => [n])).join(""), dealer: name(ex.dealer),
    first: name(ex.auction[0]?.seat ?? null) }));
  const steps = el("ol", "example-steps");
  steps.append(auctionStep(ex),
    step(t("rules.example.kitty_label"), parts("rules.example.kitty", {
      bidder: name(ex.bidder), kitty: r.kitty, cards: span(chips(ex.kitty)),
      discards: span(chips(ex.discards)) })),
    step(t("rules.example.call_label"), parts("rules.example.call", {
      bidder: name(ex.bidder), lead: cardChip(ex.lead), suit: t(`suit.${ex.trump}`),
      call: ex.call ? cardChip(ex.call) : "", partner: name(ex.partner) })),
    ...ex.tricks.map((_, i) => trickStep(ex, i)),
    step(t("rules.example.rest_label"), parts(resultKey(ex), {
      bidder: name(ex.bidder), partner: name(ex.partner), side: ex.side_tricks,
      total: ex.side_tricks + ex.kitty_trick, bid: ex.bid })));
  const score = el("p");
  score.append(...parts(ex.made ? "rules.example.score_made" : "rules.example.score_failed", {
    bidder: name(ex.bidder), partner: name(ex.partner), points: signed(ex.points[ex.bidder] ?? 0) }));
  box.replaceChildren(intro, steps, score, scoreTable(ex));
}

/** @param {Part[]} content */
function span(content) {
  const node = el("span");
  node.append(...content);
  return node;
}
