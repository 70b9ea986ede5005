// @ts-check
// The replay of a finished deal: all four hands face up, the auction and the contract,
// the trick on the table and who won it, stepped forward and back with buttons or the
// arrow keys (Home, End: the first and last step).  A step is the table after one action,
// as the server's engine worked it out (GET /api/rooms/{code}/replay, POST /api/replay;
// app/rules/replay_steps.py): this draws it and decides nothing.  Where your review of
// the deal found a clearly better choice, that step says what the strong bot would have
// chosen and marks its card: an outline and a star to see, a name and a description a
// screen reader says, and the step's sentences are read out as you step.  A change of the
// page's language redraws the step shown.  The words are replaywords.js's.

import { cardChip } from "./cards.js";
import { cardName, t } from "./i18n.js";
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

// The id of the step's "the strong bot would have chosen..." line, which describes the
// card it marks (one replay is shown on a page at a time).
const BETTER_ID = "replay-better";

/** The listeners of the replay each container shows (its keys, the page's language):
 *  ended when the container shows another.
 * @type {WeakMap<HTMLElement, AbortController>} */
const shown = new WeakMap();

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
    hand.append(id === marked ? bestChip(id) : chip(id));
  });
  if (!cards.length) hand.append(el("span", "hint", t("replay.no_cards")));
  box.append(head, hand);
  return box;
}

/** The strong bot's card, marked for the eye (an outline and a star, not a colour alone)
 *  and for a screen reader: named "Ace of spades (the strong bot's choice)", described by
 *  the step's sentence of what it would have chosen and by how much.
 * @param {string} id */
function bestChip(id) {
  const card = chip(id, "replay-best");
  card.setAttribute("role", "img");
  card.setAttribute("aria-label", `${cardName(id)} (${t("replay.best_mark")})`);
  card.setAttribute("aria-describedby", BETTER_ID);
  const star = el("span", "replay-best-star", "★");
  star.setAttribute("aria-hidden", "true");
  card.append(star);
  return card;
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

/** The auction so far, one line a bid; open during the auction, or as the person left it.
 * @param {DealReplay} replay
 * @param {ReplayStep} step
 * @param {boolean | null} open the person opened (true) or closed (false) it; null: never */
function auctionBox(replay, step, open) {
  const box = el("details", "replay-auction");
  box.open = open ?? step.trick_number === 0;
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
 *  through it, and a change of the page's language draws the step shown again in the new
 *  words.  Returns a function that shows step `i` (for the caller's own keys).
 * @param {HTMLElement} container
 * @param {DealReplay} replay
 * @param {ReplayOptions} [options] */
export function showReplay(container, replay, options = {}) {
  shown.get(container)?.abort(); // the replay shown before: its keys and redraws end
  const stop = new AbortController();
  shown.set(container, stop);
  const last = replay.steps.length - 1;
  let index = 0;
  /** @type {boolean | null} the auction's summary as the person last left it */
  let auctionOpen = null;
  let parts = build();

  /** The view's fixed parts, in the page's language now. */
  function build() {
    const heading = el("h2", "replay-heading", t("replay.heading", { n: replay.deal + 1 }));
    heading.id = "replay-title";
    const contract = el("p", "replay-contract");
    const prev = el("button", "", t("replay.prev"));
    const next = el("button", "primary", t("replay.next"));
    prev.type = next.type = "button";
    // (at either end its button stays focusable, aria-disabled: a disabled button would
    // drop the focus to the page, out of reach of the replay's keys)
    prev.addEventListener("click", () => { if (index > 0) show(index - 1); });
    next.addEventListener("click", () => { if (index < last) show(index + 1); });
    const where = el("p", "replay-where");
    where.setAttribute("role", "status");
    where.setAttribute("aria-live", "polite");
    // the counter has a row of its own above the buttons: beside two long French labels
    // on a phone it was squeezed to a column one letter wide (table.css)
    const nav = el("div", "replay-nav");
    const buttons = el("div", "replay-nav-buttons");
    buttons.append(prev, next);
    nav.append(where, buttons);
    // what was done at the step (and the strong bot's better choice): read out as you step
    const happened = el("div", "replay-happened");
    happened.setAttribute("aria-live", "polite");
    happened.setAttribute("aria-atomic", "true");
    const board = el("div", "replay-board");
    const picker = options.pickDeal && replay.deals.length > 1 ? dealPicker(replay, options.pickDeal) : null;
    container.replaceChildren(heading, ...(picker ? [picker] : []), contract, nav,
      el("p", "hint replay-keys", t("replay.keys")), happened, board);
    container.classList.add("replay");
    return { contract, prev, next, where, happened, board, picker };
  }

  /** @param {number} i */
  function show(i) {
    index = Math.max(0, Math.min(i, last));
    const step = replay.steps[index];
    if (!step) return;
    const { contract, prev, next, where, happened, board } = parts;
    const words = contractWords(replay, step);
    contract.replaceChildren(...words.map((w) => (typeof w === "string" ? w : chip(w.card))));
    where.textContent = `${whereText(replay, index)} · ${counterText(replay, index)}`;
    prev.setAttribute("aria-disabled", String(index === 0));
    next.setAttribute("aria-disabled", String(index === last));
    const decision = betterChoice(options.review, index);
    /** @type {HTMLElement[]} */
    const lines = [];
    const did = actionText(replay, index);
    if (did) lines.push(el("p", "replay-action", did));
    const won = trickWinnerText(replay, index);
    if (won) lines.push(el("p", "replay-won-line", won));
    if (decision) {
      const better = el("p", "replay-better", betterText(decision));
      better.id = BETTER_ID;
      lines.push(better);
    }
    if (index === last) lines.push(el("p", "replay-end", endText(replay)));
    happened.replaceChildren(...lines);
    // the strong bot's card is still in the hand of the seat that played another
    const marked = betterCard(decision);
    const seats = el("div", "replay-seats");
    for (let s = 0; s < replay.players.length; s++) {
      seats.append(seatBox(replay, step, s, s === step.seat ? marked : null));
    }
    const kitty = kittyLine(replay, step);
    // the board is drawn anew: the auction's summary, if it had the focus, keeps it
    const hadFocus = board.contains(document.activeElement);
    const auction = auctionBox(replay, step, auctionOpen);
    // (the person's click, not the toggle event: setting `open` as it is drawn fires one)
    auction.querySelector("summary")?.addEventListener("click", () => { auctionOpen = !auction.open; });
    board.replaceChildren(trickBox(replay, step), seats, ...(kitty ? [kitty] : []), auction);
    if (hadFocus) auction.querySelector("summary")?.focus();
  }

  // The keys work wherever the focus is in the replay's dialog (its Close button, its
  // language picker's label), not only inside the replay itself.
  const keys = container.closest("dialog") ?? container;
  keys.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target instanceof HTMLSelectElement || target instanceof HTMLInputElement) return;
    if (keys instanceof HTMLDialogElement && !keys.open) return;
    const to = stepForKey(event.key, index, last);
    if (to === null) return;
    event.preventDefault();
    show(to);
  }, { signal: stop.signal });
  document.addEventListener("languagechange", () => {
    // the same step in the new words; a control of the view that had the focus keeps it
    /** @param {typeof parts} p */
    const controls = (p) => [p.prev, p.next, p.picker?.querySelector("select"),
      p.board.querySelector(".replay-auction summary")];
    const focused = controls(parts).findIndex((c) => c && c === document.activeElement);
    parts = build();
    show(index);
    const again = controls(parts)[focused];
    if (again instanceof HTMLElement) again.focus();
  }, { signal: stop.signal });
  show(0);
  return show;
}
