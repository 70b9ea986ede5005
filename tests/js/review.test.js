// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { actionWords, clearLosses, decisionText, hintReason } from "../../app/static/js/review.js";
import { Phase } from "../../app/static/js/protocol.js";
import { useLanguage } from "./helpers.js";
import { t } from "../../app/static/js/i18n.js";

/** @typedef {import("../../app/static/js/protocol.js").ReviewDecision} Decision */

test("an action in words: a bid, a pass, a discard, a lead with its call, a card", () => {
  useLanguage("en");
  assert.equal(actionWords({ bid: 9 }), "bid 9");
  assert.equal(actionWords({ bid: "pass" }), "pass");
  assert.equal(actionWords({ bid: "amerikaner" }), "bid Amerikaner");
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

test("the decisions shown are the biggest losses, in the order they were made", () => {
  const at = (/** @type {number} */ index, /** @type {number} */ loss) => ({ ...decision(loss, 0.1), index, trick: index });
  // as the server sends them: biggest loss first
  const sent = [at(20, 9), at(3, 8), at(11, 7), at(30, 6), at(1, 5), at(7, 4), at(2, 0.3)];
  assert.deepEqual(clearLosses(sent).map((d) => d.index), [1, 3, 7, 11, 20, 30]);
});

test("French says what you chose with its de or d' (d'annoncer, de passer, d'écarter)", () => {
  useLanguage("fr");
  const bid = { ...decision(2, 0.1), phase: Phase.AUCTION, trick: null, chosen: { bid: 11 }, best: { bid: /** @type {const} */ ("pass") } };
  assert.match(decisionText(bid), /^Enchères : vous avez choisi d'annoncer 11 ; le robot fort aurait choisi de passer /);
  const discard = { ...bid, phase: Phase.DISCARD, chosen: { discard: ["AS"] }, best: { discard: ["2H"] } };
  assert.match(decisionText(discard), /vous avez choisi d'écarter l'as de pique ; le robot fort aurait choisi d'écarter le deux de cœur/);
  assert.match(decisionText({ ...bid, chosen: { bid: /** @type {const} */ ("amerikaner") } }), /vous avez choisi d'annoncer Amerikaner/);
  assert.match(decisionText(decision(2, 0.1)), /vous avez choisi le deux de trèfle ; le robot fort aurait choisi l'as de trèfle/);
  for (const d of [bid, discard, decision(2, 0.1)]) {
    assert.doesNotMatch(decisionText(d), /choisi (annoncer|passer|écarter)/);
  }
});

test("a double dummy from a later trick says why it starts there", () => {
  const late = { k: 5, n: 9, took: 8 };
  for (const [lang, why] of [["en", /took too long to work out, so this starts at trick 5/],
    ["nb", /tok for lang tid å regne ut, så dette starter i stikk 5/],
    ["fr", /trop long à calculer, donc ce calcul part du pli 5/]]) {
    useLanguage(/** @type {string} */ (lang));
    assert.match(t("review.double_dummy_late", late), /** @type {RegExp} */ (why));
  }
});
