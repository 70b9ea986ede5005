// @ts-check
// A replay's wording, without the DOM: where a step is ("Trick 3, card 2"), what was done
// at it ("Anna plays the Ace of spades"), and what the strong bot would have chosen there
// when your review of the deal says so.  Everything shown comes from the server's replay
// (app/rules/replay_steps.py, worked out by the engine); this only puts it in words
// (tests/js/replay.test.js).

import { cardInSentence, t, tn } from "./i18n.js";
import { bidText } from "./table.js";
import { contractPhrase } from "./dealwords.js";
import { actionWords, clearLosses } from "./review.js";

/** @typedef {import("./protocol.js").DealReplay} DealReplay */
/** @typedef {import("./protocol.js").ReplayStep} ReplayStep */
/** @typedef {import("./protocol.js").ReplayDealLine} ReplayDealLine */
/** @typedef {import("./protocol.js").ReviewFrame} ReviewFrame */
/** @typedef {import("./protocol.js").ReviewDecision} Decision */
/** @typedef {import("./dealwords.js").Piece} Piece */

/** A seat's name in the replay.
 * @param {DealReplay} replay
 * @param {number | null} seat */
export function nameOf(replay, seat) {
  return seat === null ? "" : replay.players[seat] ?? t("seat.bot", { n: seat + 1 });
}

/** Where step `index` is in the deal: "As dealt", "Auction, bid 3", "Kitty exchange",
 *  "Trick 3, card 2".
 * @param {DealReplay} replay
 * @param {number} index */
export function whereText(replay, index) {
  const step = replay.steps[index];
  if (!step || step.seat === null || !step.action) return t("replay.where.dealt");
  const action = step.action;
  if (action.bid !== undefined) return t("replay.where.auction", { k: step.auction.length });
  if (action.discard !== undefined) return t("replay.where.discard");
  return t("replay.where.trick", { n: step.trick_number, k: step.trick.length });
}

/** "Step 4 of 53".
 * @param {DealReplay} replay
 * @param {number} index */
export function counterText(replay, index) {
  return t("replay.step", { i: index, n: replay.steps.length - 1 });
}

/** What was done at step `index`, in a sentence ("" at the first step).
 * @param {DealReplay} replay
 * @param {number} index */
export function actionText(replay, index) {
  const step = replay.steps[index];
  if (!step || step.seat === null || !step.action) return "";
  const name = nameOf(replay, step.seat);
  const a = step.action;
  if (a.bid !== undefined) {
    return a.bid === "pass" ? t("replay.passes", { name }) : t("replay.bids", { name, bid: bidText(a.bid) });
  }
  if (a.discard !== undefined) {
    return t("replay.discards", { name, cards: a.discard.map(cardInSentence).join(", ") });
  }
  const card = cardInSentence(a.play ?? "");
  if (a.call) {
    return t(a.grand ? "replay.leads_grand" : "replay.leads_call", { name, card, call: cardInSentence(a.call) });
  }
  return t(step.trick.length === 1 ? "replay.leads" : "replay.plays", { name, card });
}

/** "Bjørn wins the trick." at the step that completed a trick, else "".
 * @param {DealReplay} replay
 * @param {number} index */
export function trickWinnerText(replay, index) {
  const step = replay.steps[index];
  if (!step || step.trick_winner === null) return "";
  return t("replay.won", { name: nameOf(replay, step.trick_winner) });
}

/** The end of the deal in one line: how it ended and the points per player.
 * @param {DealReplay} replay */
export function endText(replay) {
  if (replay.outcome === "void") {
    return t(replay.void_reason === "no_callable" ? "replay.void_no_callable" : "replay.void_passed");
  }
  const points = replay.points.map((p, s) => `${nameOf(replay, s)} ${p > 0 ? "+" : ""}${p}`).join(", ");
  const made = replay.made === null ? "" : t(replay.made ? "replay.made" : "replay.failed");
  return [made, t("replay.points", { points })].filter(Boolean).join(" ");
}

/** The contract at a step, in pieces (text, or a card shown as a chip): "Anna bid 8.
 *  Trump: hearts. Called: Ace of hearts. Partner: Bo"; before the auction ends, "".
 * @param {DealReplay} replay
 * @param {ReplayStep} step
 * @returns {Piece[]} */
export function contractWords(replay, step) {
  const c = step.contract;
  if (!c) {
    if (step.phase === "play" || (step.phase === "over" && replay.outcome === "minus_round")) return [t("contract.minus_round")];
    return [];
  }
  return contractPhrase(c, (seat) => nameOf(replay, seat), step.trick_number > 0);
}

/** A seat's tricks so far: "3 tricks".
 * @param {number} n */
export function tricksText(n) {
  return tn("replay.tricks", n, { n });
}

/** A deal of the record in the picker: "Deal 2: Anna bid 8".
 * @param {DealReplay} replay
 * @param {ReplayDealLine} line
 * @param {number} index */
export function dealOption(replay, line, index) {
  const n = index + 1;
  if (line.outcome === "void") return t("replay.deal_void", { n });
  if (line.outcome === "incomplete") return t("replay.deal_open", { n });
  if (line.outcome === "minus_round") return t("replay.deal_minus", { n });
  const c = line.contract;
  if (!c) return t("replay.deal_open", { n });
  return t("replay.deal_contract", { n, name: nameOf(replay, c.bidder), bid: bidText(c.bid ?? "") });
}

/** Your review's decision at the action that led to step `index`, when the strong bot
 *  would clearly have chosen otherwise; else null.
 * @param {ReviewFrame | null | undefined} review
 * @param {number} index */
export function betterChoice(review, index) {
  if (!review || index < 1 || "error" in review.review) return null;
  return clearLosses(review.review.decisions).find((d) => d.index === index - 1) ?? null;
}

/** The sentence for a better choice: "The strong bot would have chosen the King of spades
 *  here (about 1.5 points better on average)."
 * @param {Decision} decision */
export function betterText(decision) {
  const loss = Math.round(decision.loss * 10) / 10;
  return tn("replay.best", loss, { best: actionWords(decision.best), loss });
}

/** The card the strong bot would have played at that step, if it is a card.
 * @param {Decision | null} decision */
export function betterCard(decision) {
  return decision && decision.best.play ? decision.best.play : null;
}

/** Which step the arrow keys lead to from `index` (null: the key does not move).
 * @param {string} key
 * @param {number} index
 * @param {number} last the last step's index */
export function stepForKey(key, index, last) {
  if (key === "ArrowRight") return Math.min(index + 1, last);
  if (key === "ArrowLeft") return Math.max(index - 1, 0);
  if (key === "Home") return 0;
  if (key === "End") return last;
  return null;
}

/** The index of the `k`-th deal that was played out (a row of a score sheet: void deals
 *  have none), or null.
 * @param {ReplayDealLine[]} lines
 * @param {number} k */
export function scoredDeal(lines, k) {
  const played = lines.map((line, i) => [line, i]).filter(([line]) =>
    typeof line === "object" && line.outcome !== "void" && line.outcome !== "incomplete");
  const found = played[k];
  return found ? Number(found[1]) : null;
}

/** Whether a step shows the trick play (and not the auction or the kitty).
 * @param {ReplayStep} step */
export function inPlay(step) {
  return step.trick_number > 0;
}

/** Where a record breaks a rule, in the page's language (null: it does not say).
 * @param {Record<string, string | number>} params `deal`, `action` (0-based) */
export function brokenAt(params) {
  const { deal, action } = params;
  if (typeof deal !== "number") return null;
  if (typeof action !== "number") return t("replay.broken_at_deal", { deal: deal + 1 });
  return t("replay.broken_at", { deal: deal + 1, action: action + 1 });
}
