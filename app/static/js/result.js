// @ts-check
// Between deals and at the end: the deal's result (made or not, with the kitty trick
// where it counts, each player's points), "Next deal" with the time left, the winners,
// and the match-end choices: "Play again", the host's "Rematch" (at once) and "Back to
// lobby", "Leave table", "Download record".

import { countdown } from "./clock.js";
import { t } from "./i18n.js";
import { bidText, seatName } from "./table.js";
import { byId, el, replaceIfDifferent } from "./dom.js";
import { signed } from "./format.js";
import { reviewContent } from "./review.js";
import { mayAsk, reviewButton, shownReview } from "./reviewlist.js";
import { ratingChangeLine } from "./clubresult.js";

import { Outcome, Phase } from "./protocol.js";

/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./protocol.js").ResultWire} Result */
/** @typedef {import("./uistate.js").UiState} UiState */

/**
 * @param {string} text
 * @param {string} action
 * @param {boolean} [enabled]
 * @param {boolean} [primary] */
function button(text, action, enabled = true, primary = false) {
  const b = el("button", primary ? "primary" : "", text);
  b.type = "button";
  b.dataset.action = action;
  b.dataset.key = action;
  b.disabled = !enabled;
  return b;
}

/**
 * @param {View} view
 * @param {Result} r the deal's result */
function outcomeLine(view, r) {
  const c = view.contract;
  if (r.outcome === Outcome.MINUS_ROUND) return el("p", "", t("result.minus_round"));
  if (!c) return el("p", "", "");
  const made = Boolean(r.made);
  const p = el("p", made ? "made" : "failed");
  p.textContent = t(made ? "result.made" : "result.failed",
    { name: seatName(view, c.bidder), bid: bidText(c.bid) });
  return p;
}

/** How the bidder's side counted its tricks: "4 + 6 + the kitty = 11".
 * @param {View} view
 * @param {Result} r the deal's result */
function sideLine(view, r) {
  const c = view.contract;
  if (!c || r.outcome === Outcome.MINUS_ROUND || c.bid === "amerikaner") return null;
  const seats = [c.bidder];
  if (c.partner !== null && c.partner !== undefined && c.partner !== c.bidder) seats.push(c.partner);
  const counts = seats.map((s) => r.tricks_won[s] ?? 0);
  const total = counts.reduce((a, b) => a + b, 0) + (r.kitty_trick ? 1 : 0);
  const names = seats.map((s) => seatName(view, s)).join(" + ");
  const sum = counts.join(" + ");
  const key = r.kitty_trick ? "result.side_kitty" : "result.side";
  return el("p", "side-tricks", t(key, { names, sum, total }));
}

/**
 * @param {View} view
 * @param {Result} r the deal's result */
function pointsTable(view, r) {
  const table = el("table", "score-table");
  const caption = el("caption", "sr-only", t("result.points_caption"));
  const head = el("thead");
  const hr = el("tr");
  for (const text of [t("result.player"), t("result.tricks"), t("result.points")]) {
    const th = el("th", "", text);
    th.scope = "col";
    hr.append(th);
  }
  head.append(hr);
  const body = el("tbody");
  const bidder = view.contract ? view.contract.bidder : null;
  for (let seat = 0; seat < view.players; seat++) {
    const tr = el("tr");
    const th = el("th", "", seatName(view, seat));
    th.scope = "row";
    let tricks = String(r.tricks_won[seat] ?? 0);
    if (r.kitty_trick && seat === bidder) tricks += ` ${t("result.plus_kitty")}`;
    tr.append(th, el("td", "", tricks), el("td", "", signed(r.points[seat] ?? 0)));
    body.append(tr);
  }
  table.append(caption, head, body);
  return table;
}

/** @param {View} view */
function winnersLine(view) {
  const names = view.winners.map((s) => seatName(view, s));
  const key = names.length > 1 ? "result.winners_shared" : "result.winner";
  return el("p", "winners", t(key, { names: names.join(", ") }));
}

/**
 * @param {View} view
 * @param {HTMLElement[]} parts
 * @param {HTMLElement} actions */
function dealOver(view, parts, actions) {
  const room = view.room;
  if (view.you !== null) {
    const me = room.seats[view.you];
    actions.append(button(t("result.next_deal"), "ready", !(me && me.ready), true));
  }
  const wait = waitLine(view);
  if (wait) parts.push(el("p", "hint", wait));
  if (room.next_deal_at) {
    const p = el("p", "hint next-deal-clock", `${t("result.next_in")} `);
    p.append(countdown(room.next_deal_at));
    parts.push(p);
  }
}

/**
 * @param {View} view
 * @param {HTMLElement[]} parts
 * @param {HTMLElement} actions */
function matchOver(view, parts, actions) {
  const room = view.room;
  parts.splice(1, 0, winnersLine(view));
  const rating = ratingChangeLine(view);  // a club's table (clubresult.js)
  if (rating) parts.splice(2, 0, rating);
  const starting = Boolean(room.next_deal_at);
  const seated = room.your_seat !== null;
  const me = room.your_seat !== null ? room.seats[room.your_seat] : null;
  if (seated && !room.practice) {
    const again = button(t("result.again"), "again", !(me && me.again) && !starting,
      !room.you_are_host);
    actions.append(again);
  }
  // A new match is counting down: every screen says so (once, to a screen reader too).
  if (room.next_deal_at) {
    const p = el("p", "notice new-match-clock", `${t("result.new_match_in")} `);
    p.setAttribute("role", "status");
    p.append(countdown(room.next_deal_at));
    parts.splice(1, 0, p);
  }
  if (room.you_are_host) {
    actions.append(button(t("result.rematch"), "rematch", !starting, true));
    if (!room.practice) actions.append(button(t("result.lobby"), "back-to-lobby"));
  }
  if (seated) actions.append(button(t("result.download"), "download", room.record_available));
  if (seated && !room.you_are_host && !room.practice) actions.append(button(t("result.leave"), "leave"));
  const wait = waitLine(view);
  if (wait) parts.push(el("p", "hint", wait));
}

/** Who the table waits for between deals or after the match, named (issue 39), or
 * null. After the match, once a new match counts down nobody is waited for: the
 * countdown alone says what happens (not "New match in 4 s" and "Waiting for: Alice").
 * @param {View} view
 * @returns {string | null} */
export function waitLine(view) {
  const room = view.room;
  const me = room.your_seat !== null ? room.seats[room.your_seat] : null;
  /** @param {(s: import("./protocol.js").SeatInfo) => boolean} done */
  const others = (done) => room.seats.filter((s) => s.human && s.connected && !done(s) && s !== me)
    .map((s) => s.name || seatName(view, s.seat));
  if (view.phase === Phase.DEAL_OVER) {
    if (view.you === null || !(me && me.ready)) return null;
    const names = others((s) => s.ready);
    return names.length ? t("result.again_waiting", { names: names.join(", ") }) : t("result.waiting_ready");
  }
  if (view.phase !== Phase.MATCH_OVER || room.practice || room.next_deal_at) return null;
  const names = others((s) => s.again);
  if (me && me.again && names.length) return t("result.again_waiting", { names: names.join(", ") });
  return room.you_are_host ? null : t("result.rematch_wait");
}

/**
 * @param {View} view
 * @param {UiState} ui */
export function renderResult(view, ui) {
  const box = byId("result");
  const over = view.phase === Phase.DEAL_OVER || view.phase === Phase.MATCH_OVER;
  box.hidden = !over;
  if (!over) {
    replaceIfDifferent(box, []);
    return;
  }
  const heading = view.phase === Phase.MATCH_OVER ? "result.match_heading" : "result.deal_heading";
  /** @type {HTMLElement[]} */
  const parts = [el("h2", "", t(heading, { n: view.deal_number }))];
  if (view.result) {
    parts.push(outcomeLine(view, view.result));
    const side = sideLine(view, view.result);
    if (side) parts.push(side);
    parts.push(pointsTable(view, view.result));
  }
  const actions = el("div", "actions");
  if (view.phase === Phase.DEAL_OVER) dealOver(view, parts, actions);
  else matchOver(view, parts, actions);
  // Your own decisions in the deal just played, reviewed by the strong bot (on request;
  // asked again after a failure: the server keeps only reviews made).
  const shown = shownReview(view);
  if (view.result && view.you !== null && shown !== null) {
    const deal = view.room.reviewable[view.room.reviewable.length - 1] ?? 0;
    actions.append(reviewButton(deal, mayAsk(ui, shown)));
    if (ui.reviews.has(shown)) {
      const section = el("section", "review");
      section.append(...reviewContent(ui.reviews.get(shown) ?? null));
      parts.push(section);
    }
  }
  // The choices first, so that they are on the first screen.
  parts.splice(view.phase === Phase.MATCH_OVER ? 2 : 1, 0, actions);
  replaceIfDifferent(box, parts);
}
