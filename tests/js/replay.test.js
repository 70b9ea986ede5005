// @ts-check
// The replay's wording (replaywords.js): where a step is, what was done at it, the end of
// the deal, the deal picker, the review's better choice and the keys that step.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  actionText, betterCard, betterChoice, betterText, contractWords, counterText, dealOption, endText,
  scoredDeal, stepForKey, trickWinnerText, whereText,
} from "../../app/static/js/replaywords.js";
import { Phase } from "../../app/static/js/protocol.js";
import { useLanguage } from "./helpers.js";

/** @typedef {import("../../app/static/js/protocol.js").DealReplay} DealReplay */
/** @typedef {import("../../app/static/js/protocol.js").ReplayStep} ReplayStep */
/** @typedef {import("../../app/static/js/protocol.js").ReviewFrame} ReviewFrame */

const CONTRACT = { bidder: 2, bid: 8, trump: "H", called: "AH", partner: 3, grand: false };

/** @param {Partial<ReplayStep>} changes
 * @returns {ReplayStep} */
function step(changes) {
  return {
    seat: null, action: null, phase: Phase.AUCTION, hands: [["AS"], ["KS"], ["QS"], ["JS"]],
    auction: [], contract: null, trick: [], trick_number: 0, trick_winner: null,
    tricks_won: [0, 0, 0, 0], points: null, made: null, ...changes,
  };
}

/** @returns {DealReplay} */
function replay() {
  return {
    players: ["Anna", "Bjørn", "Chloé", "David"], match: null, deal: 0,
    deals: [
      { dealer: 0, outcome: "void", contract: null, tricks: [0, 0, 0, 0], made: null, points: [0, 0, 0, 0] },
      { dealer: 0, outcome: "played", contract: CONTRACT, tricks: [1, 2, 6, 3], made: true, points: [1, 2, 8, 8] },
      { dealer: 1, outcome: "incomplete", contract: null, tricks: [0, 0, 0, 0], made: null, points: null },
    ],
    dealer: 0, kitty: ["9H"], discards: ["3C"], outcome: "played", void_reason: null,
    contract: CONTRACT, tricks: [], tricks_won: [1, 2, 6, 3], points: [1, 2, 8, 8], made: true,
    kitty_trick: true,
    steps: [
      step({}),
      step({ seat: 1, action: { bid: 7 }, auction: [{ seat: 1, bid: 7 }] }),
      step({ seat: 2, action: { bid: "pass" }, auction: [{ seat: 1, bid: 7 }, { seat: 2, bid: "pass" }] }),
      step({ seat: 2, action: { discard: ["3C"] }, phase: Phase.LEAD, contract: { ...CONTRACT, called: null, trump: null, partner: null } }),
      step({ seat: 2, action: { play: "5H", call: "AH" }, phase: Phase.PLAY, contract: CONTRACT,
        trick: [{ seat: 2, card: "5H" }], trick_number: 1 }),
      step({ seat: 3, action: { play: "AH" }, phase: Phase.PLAY, contract: CONTRACT,
        trick: [{ seat: 2, card: "5H" }, { seat: 3, card: "AH" }], trick_number: 1 }),
      step({ seat: 1, action: { play: "7H" }, phase: Phase.OVER, contract: CONTRACT, trick_number: 12,
        trick: [{ seat: 2, card: "KH" }, { seat: 3, card: "4H" }, { seat: 0, card: "2H" }, { seat: 1, card: "7H" }],
        trick_winner: 2, tricks_won: [1, 2, 6, 3], points: [1, 2, 8, 8], made: true }),
    ],
  };
}

test("where a step is and what was done at it, in each language", () => {
  useLanguage("en");
  const r = replay();
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map((i) => whereText(r, i)), [
    "As dealt", "Auction, bid 1", "Auction, bid 2", "Kitty exchange", "Trick 1, card 1",
    "Trick 1, card 2", "Trick 12, card 4"]);
  assert.equal(counterText(r, 4), "step 4 of 6");
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6].map((i) => actionText(r, i)), [
    "", "Bjørn bids 7.", "Chloé passes.", "Chloé discards Three of clubs.",
    "Chloé leads Five of hearts and calls Ace of hearts.", "David plays Ace of hearts.",
    "Bjørn plays Seven of hearts."]);
  assert.equal(trickWinnerText(r, 5), "");
  assert.equal(trickWinnerText(r, 6), "Chloé wins the trick.");
  assert.equal(endText(r), "The contract is made. Points: Anna +1, Bjørn +2, Chloé +8, David +8.");
  useLanguage("nb");
  assert.equal(whereText(r, 5), "Stikk 1, kort 2");
  assert.equal(actionText(r, 4), "Chloé spiller ut hjerter fem og roper hjerter ess.");
  assert.equal(trickWinnerText(r, 6), "Chloé tar stikket.");
  useLanguage("fr");
  assert.equal(actionText(r, 4), "Chloé entame le cinq de cœur et appelle l'as de cœur.");
  assert.equal(endText(r), "Le contrat est réussi. Points : Anna +1, Bjørn +2, Chloé +8, David +8.");
});

test("the contract: nothing in the auction, the partner once the call is made", () => {
  useLanguage("en");
  const r = replay();
  const text = (/** @type {number} */ i) => contractWords(r, r.steps[i] ?? step({}))
    .map((p) => (typeof p === "string" ? p : `[${p.card}]`)).join("");
  assert.equal(text(1), "");
  assert.equal(text(3), "Chloé bid 8");
  assert.equal(text(4), "Chloé bid 8. Trump: hearts. Called: [AH]. Partner: David");
});

test("the deal picker names each deal; a score sheet's row skips the void deals", () => {
  useLanguage("en");
  const r = replay();
  assert.deepEqual(r.deals.map((line, i) => dealOption(r, line, i)), [
    "Deal 1: dealt again", "Deal 2: Chloé bid 8", "Deal 3: still being played"]);
  assert.equal(scoredDeal(r.deals, 0), 1);
  assert.equal(scoredDeal(r.deals, 1), null);
});

test("the review's clearly better choice is shown at the step of that action", () => {
  useLanguage("en");
  /** @type {ReviewFrame} */
  const review = { type: "review", match: 1, deal: 0, seat: 3, review: {
    seat: 3, bidder: 2, contract: 8, side_tricks: 9, double_dummy: 9, double_dummy_from_trick: 1,
    double_dummy_skipped: null,
    points: 8, total_loss: 1.5, decisions: [
      { index: 4, phase: Phase.PLAY, trick: 1, chosen: { play: "AH" }, best: { play: "4H" },
        chosen_points: 6.5, best_points: 8, loss: 1.5, loss_error: .2, samples: 40, hinted: false, clear: true },
      { index: 0, phase: Phase.AUCTION, trick: null, chosen: { bid: 7 }, best: { bid: "pass" },
        chosen_points: 6, best_points: 6.1, loss: .1, loss_error: .3, samples: 40, hinted: false, clear: false },
    ] } };
  assert.equal(betterChoice(review, 4), null);
  assert.equal(betterChoice(review, 1), null, "a loss within the noise is not shown");
  const d = betterChoice(review, 5);
  assert.ok(d);
  assert.equal(betterCard(d), "4H");
  assert.equal(betterText(d), "The strong bot would have chosen Four of hearts here (about 1.5 points better on average).");
  assert.equal(betterChoice({ ...review, review: { error: "no" } }, 5), null);
  assert.equal(betterChoice(null, 5), null);
});

test("the keys: arrows step, Home and End jump, others do nothing", () => {
  assert.equal(stepForKey("ArrowRight", 3, 10), 4);
  assert.equal(stepForKey("ArrowRight", 10, 10), 10);
  assert.equal(stepForKey("ArrowLeft", 0, 10), 0);
  assert.equal(stepForKey("Home", 5, 10), 0);
  assert.equal(stepForKey("End", 5, 10), 10);
  assert.equal(stepForKey("a", 5, 10), null);
});
