// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { actionWords, clearLosses, decisionText, hintReason } from "../../app/static/js/review.js";
import { Phase } from "../../app/static/js/protocol.js";
import { useLanguage } from "./helpers.js";

/** @typedef {import("../../app/static/js/protocol.js").ReviewDecision} Decision */

test("an action in words: a bid, a pass, a discard, a lead with its call, a card", () => {
  useLanguage("en");
  assert.equal(actionWords({ bid: 9 }), "bid 9");
  assert.equal(actionWords({ bid: "pass" }), "pass");
  assert.equal(actionWords({ bid: "amerikaner" }), "Amerikaner");
  assert.equal(actionWords({ discard: ["AS", "2H"] }), "discard Ace of spades, Two of hearts");
  assert.equal(actionWords({ play: "AH", call: "KS" }), "Ace of hearts, calling King of spades");
  assert.equal(actionWords({ play: "QD" }), "Queen of diamonds");
  assert.equal(actionWords(null), "");
});

/** @param {number} loss
 * @param {number} lossError
 * @returns {Decision} */
function decision(loss, lossError) {
  return {
    index: 12, phase: Phase.PLAY, trick: 3, chosen: { play: "2C" }, best: { play: "AC" },
    chosen_points: 1, best_points: 1 + loss, loss, loss_error: lossError, samples: 40,
    hinted: false, clear: loss > 0 && loss > 2 * lossError,  // the server's judgement
  };
}

test("only the losses the server judged clear are shown, at most six", () => {
  const noise = decision(0.5, 0.3);
  const clear = decision(2, 0.5);
  assert.deepEqual(clearLosses([clear, noise, decision(0, 0)]), [clear]);
  assert.equal(clearLosses(Array.from({ length: 9 }, () => decision(3, 0.1))).length, 6);
  assert.deepEqual(clearLosses([{ ...clear, hinted: true, clear: false }]), [], "a followed hint");
});

test("a decision in words names the trick in play, the phase before it", () => {
  useLanguage("en");
  assert.equal(decisionText(decision(1.25, 0.1)),
    "Trick 3: you chose Two of clubs; the strong bot would choose Ace of clubs (about 1.3 points better on average).");
  const bid = { ...decision(2, 0.1), phase: Phase.AUCTION, trick: null, chosen: { bid: 7 }, best: { bid: /** @type {const} */ ("pass") } };
  assert.match(decisionText(bid), /^Bidding: you chose bid 7; the strong bot would choose pass /);
});

test("a hint's reason is prefixed with Hint once, its cards named", () => {
  useLanguage("en");
  assert.equal(hintReason(null), null);
  const text = hintReason({ key: "log.won_by", params: { name: "Anna" } });
  assert.equal(text, "Hint: won by Anna");
});

test("a hint's figures in the language: its decimal separator and the plural of its count", () => {
  const reason = { key: "hint.bid_expected", params: { bid: 11, tricks: 10.9, trump: "D", points: 4.2 } };
  useLanguage("en");
  assert.equal(hintReason(reason), "Hint: Bid 11: about 10.9 tricks expected with diamonds as trump.");
  useLanguage("nb");
  assert.equal(hintReason(reason), "Tips: By 11: omtrent 10,9 stikk ventet med ruter som trumf.");
  useLanguage("fr");
  assert.equal(hintReason(reason), "Conseil : Annoncez 11 : environ 10,9 plis attendus avec carreau comme atout.");
  const weak = { key: "hint.pass_weak", params: { tricks: 1.5, min_bid: 6 } };
  assert.match(hintReason(weak) ?? "", /environ 1,5 pli, trop peu pour 6\.$/);
  useLanguage("en");
  assert.match(hintReason(weak) ?? "", /about 1\.5 tricks, too few for 6\.$/);
  assert.match(hintReason({ ...weak, params: { tricks: 1, min_bid: 6 } }) ?? "", /about 1 trick, too few/);
});

test("a decision's loss: its decimal separator and its plural in each language", () => {
  useLanguage("fr");
  assert.match(decisionText(decision(1.25, 0.1)), /\(environ 1,3 point de mieux en moyenne\)\.$/);
  assert.match(decisionText(decision(2.5, 0.1)), /\(environ 2,5 points de mieux en moyenne\)\.$/);
  useLanguage("nb");
  assert.match(decisionText(decision(2.5, 0.1)), /\(omtrent 2,5 poeng bedre i snitt\)\.$/);
  useLanguage("en");
  assert.match(decisionText(decision(1, 0.1)), /\(about 1 point better on average\)\.$/);
  assert.match(decisionText(decision(3, 0.1)), /\(about 3 points better on average\)\.$/);
});
