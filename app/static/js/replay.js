// @ts-check
// The replay of a finished deal: all four hands face up, the auction and the contract,
// the trick on the table and who won it, stepped forward and back with buttons or the
// arrow keys (Home, End: the first and last step).  A step is the table after one action,
// as the server's engine worked it out (GET /api/rooms/{code}/replay, POST /api/replay;
// app/rules/replay_steps.py): this draws it and decides nothing.  Where your review of
// the deal found a clearly better choice, that step says what the strong bot would have
// chosen and marks its card.  The words are replaywords.js's.

import { cardChip } from "./cards.js";
import { t } from "./i18n.js";
import { el } from "./dom.js";
import {
  actionText, betterCard, betterChoice, betterText, contractWords, counterText, dealOption,
  endText, nameOf, stepForKey, trickWinnerText, tricksText, whereText,
} from "./replaywords.js";

/** @typedef {import("./protocol.js").DealReplay} DealReplay */
/** @typedef {import("./protocol.js").ReplayStep} ReplayStep */
/** @typedef {import("./protocol.js").ReviewFrame} ReviewFrame */

/**
 * @typedef {object} ReplayOptions
 * @property {(deal: number) => void} [pickDeal] show another deal of the record
 * @property {ReviewFrame | null} [review] your review of this deal, if you asked for one
 * (the heading is #replay-title: the page's section and the room's dialog are named by it)
 */

/** @param {string} id
 * @param {string} [extra] */
function chip(id, extra) {
  const c = cardChip(id);
  c.dataset.card = id;
  if (extra) c.classList.add(extra);
  return c;
}

/** A seat's hand at a step: its cards as chips, the strong bot's card marked.
 * @param {DealReplay} replay
 * @param {ReplayStep} step
 * @param {number} seat
 * @param {string | null} marked */
function seatBox(replay, step, seat, marked) {
  const box = el("section", "replay-seat");
  box.setAttribute("aria-label", t("replay.hand", { name: nameOf(replay, seat) }));
  box.dataset.seat = String(seat);
  const head = el("p", "replay-seat-head");
  head.append(el("strong", "", nameOf(replay, seat)));
  if (seat === replay.dealer) head.append(" ", el("span", "replay-tag", t("replay.dealer")));
  const c = step.contract;
  if (c && c.bidder === seat) head.append(" ", el("span", "replay-tag", t("replay.bidder")));
  else if (c && c.partner === seat && c.called) head.append(" ", el("span", "replay-tag", t("replay.partner")));
  head.append(" ", el("span", "replay-won", tricksText(step.tricks_won[seat] ?? 0)));
  if (step.seat === seat) box.classList.add("acted");
  const hand = el("p", "replay-hand chips");
  const cards = step.hands[seat] ?? [];
  cards.forEach((id, i) => {
    if (i) hand.append(" ");
    const mark = id === marked;
    const card = chip(id, mark ? "replay-best" : undefined);
    if (mark) card.append(el("span", "sr-only", ` (${t("replay.best_mark")})`));
    hand.append(card);
  });
  if (!cards.length) hand.append(el("span", "hint", t("replay.no_cards")));
  box.append(head, hand);
  return box;
}

/** The trick on the table at a step, each card with its player, the winner marked.
 * @param {DealReplay} replay
 * @param {ReplayStep} step */
function trickBox(replay, step) {
  const box = el("div", "replay-trick");
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", t("replay.trick", { n: step.trick_number }));
  if (!step.trick.length) {
    box.hidden = true;
    return box;
  }
  const list = el("ol", "replay-trick-cards");
  for (const play of step.trick) {
    const li = el("li", play.seat === step.trick_winner ? "replay-winner" : "");
    li.dataset.seat = String(play.seat);
    li.append(el("span", "", `${nameOf(replay, play.seat)} `), chip(play.card));
    list.append(li);
  }
  box.append(el("p", "replay-trick-head", t("replay.trick", { n: step.trick_number })), list);
  return box;
}

/** The auction so far, one line a bid.
 * @param {DealReplay} replay
 * @param {ReplayStep} step */
function auctionBox(replay, step) {
  const box = el("details", "replay-auction");
  box.open = step.trick_number === 0;
  box.append(el("summary", "", t("replay.auction")));
  const list = el("ol", "history");
  for (const entry of step.auction) {
    list.append(el("li", "", t("auction.line", { name: nameOf(replay, entry.seat),
      bid: entry.bid === "pass" ? t("bid.pass_done") : entry.bid === "amerikaner" ? t("bid.amerikaner") : String(entry.bid) })));
  }
  if (!step.auction.length) list.append(el("li", "hint", t("replay.no_bids")));
  box.append(list);
  return box;
}

/** The kitty as dealt and, once discarded, the discards.
 * @param {DealReplay} replay
 * @param {ReplayStep} step */
function kittyLine(replay, step) {
  const p = el("p", "replay-kitty chips");
  if (!replay.kitty.length) return null;
  p.append(`${t("replay.kitty")} `);
  replay.kitty.forEach((id, i) => p.append(...(i ? [" "] : []), chip(id)));
  const discarded = step.phase !== "auction" && step.phase !== "discard" && replay.discards.length;
  if (discarded) {
    p.append(` ${t("replay.discarded")} `);
    replay.discards.forEach((id, i) => p.append(...(i ? [" "] : []), chip(id)));
  }
  return p;
}

/** The deal picker: every deal of the record (void deals too).
 * @param {DealReplay} replay
 * @param {(deal: number) => void} pick */
function dealPicker(replay, pick) {
  const label = el("label", "replay-pick");
  label.append(el("span", "", `${t("replay.choose_deal")} `));
  const select = el("select");
  replay.deals.forEach((line, i) => {
    const option = el("option", "", dealOption(replay, line, i));
    option.value = String(i);
    option.disabled = line.outcome === "incomplete";
    option.selected = i === replay.deal;
    select.append(option);
  });
  select.addEventListener("change", () => pick(Number(select.value)));
  label.append(select);
  return label;
}

/** Show `replay` in `container`, at its first step; the controls and the arrow keys step
 *  through it.  Returns a function that shows step `i` (for the caller's own keys).
 * @param {HTMLElement} container
 * @param {DealReplay} replay
 * @param {ReplayOptions} [options] */
export function showReplay(container, replay, options = {}) {
  const last = replay.steps.length - 1;
  let index = 0;
  const heading = el("h2", "replay-heading", t("replay.heading", { n: replay.deal + 1 }));
  heading.id = "replay-title";
  const contract = el("p", "replay-contract");
  const prev = el("button", "", t("replay.prev"));
  const next = el("button", "primary", t("replay.next"));
  prev.type = next.type = "button";
  const where = el("p", "replay-where");
  where.setAttribute("role", "status");
  where.setAttribute("aria-live", "polite");
  const nav = el("div", "replay-nav");
  nav.append(prev, where, next);
  const happened = el("div", "replay-happened");
  const board = el("div", "replay-board");
  /** @type {HTMLElement[]} */
  const parts = [heading];
  if (options.pickDeal && replay.deals.length > 1) parts.push(dealPicker(replay, options.pickDeal));
  parts.push(contract, nav, el("p", "hint replay-keys", t("replay.keys")), happened, board);
  container.replaceChildren(...parts);
  container.classList.add("replay");

  /** @param {number} i */
  function show(i) {
    index = Math.max(0, Math.min(i, last));
    const step = replay.steps[index];
    if (!step) return;
    const words = contractWords(replay, step);
    contract.replaceChildren(...words.map((w) => (typeof w === "string" ? w : chip(w.card))));
    where.textContent = `${whereText(replay, index)} · ${counterText(replay, index)}`;
    prev.disabled = index === 0;
    next.disabled = index === last;
    const decision = betterChoice(options.review, index);
    /** @type {HTMLElement[]} */
    const lines = [];
    const did = actionText(replay, index);
    if (did) lines.push(el("p", "replay-action", did));
    const won = trickWinnerText(replay, index);
    if (won) lines.push(el("p", "replay-won-line", won));
    if (decision) lines.push(el("p", "replay-better", betterText(decision)));
    if (index === last) lines.push(el("p", "replay-end", endText(replay)));
    happened.replaceChildren(...lines);
    // the strong bot's card is still in the hand of the seat that played another
    const marked = betterCard(decision);
    const seats = el("div", "replay-seats");
    for (let s = 0; s < replay.players.length; s++) {
      seats.append(seatBox(replay, step, s, s === step.seat ? marked : null));
    }
    const kitty = kittyLine(replay, step);
    board.replaceChildren(trickBox(replay, step), seats, ...(kitty ? [kitty] : []), auctionBox(replay, step));
  }

  prev.addEventListener("click", () => show(index - 1));
  next.addEventListener("click", () => show(index + 1));
  container.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target instanceof HTMLSelectElement || target instanceof HTMLInputElement) return;
    const to = stepForKey(event.key, index, last);
    if (to === null) return;
    event.preventDefault();
    show(to);
  });
  show(0);
  return show;
}
