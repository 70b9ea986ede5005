// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { bestHere, bestVsPar } from "../../app/static/js/parmarks.js";
import { useLanguage } from "./helpers.js";

/** @typedef {import("../../app/static/js/protocol.js").ClubMatch} ClubMatch */

/** A club match of three scored deals (deal 1 of the record was void), Ann and Bob with
 *  two bots; Ann beat par most in deal 2, Bob in deal 0, by a third of a point.
 * @param {Array<number | null>} best
 * @returns {ClubMatch} */
function match(best) {
  const seat = (/** @type {string} */ name) => ({ player: null, name });
  return {
    room: "abc", match: 1, season: 1, finished_at: 0,
    seats: [seat("Ann"), seat("Bob"), seat("Bot 1"), seat("Bot 2")],
    totals: [0, 0, 0, 0], score_sheet: [],
    deals: [
      { deal: 0, row: 0, points: [-10, 10, -10, 10], par: [-10, 9 + 2 / 3, 0, 0] },
      { deal: 2, row: 1, points: [12, -12, 12, -12], par: [8.8, -4, 0, 0] },
      { deal: 3, row: 2, points: [0, 0, 0, 0], par: null },
    ],
    best_vs_par: best,
  };
}

test("who beat par most, by the record's deal, with by how much", () => {
  useLanguage("en");
  const best = bestVsPar(match([2, 0, null, null]));
  assert.deepEqual(bestHere(best, 2), ["Ann beat par most here: +3.2"]);
  assert.deepEqual(bestHere(best, 0), ["Bob beat par most here: +0.3"]);
  assert.deepEqual(bestHere(best, 1), []);
  assert.deepEqual(bestHere(best, 3), []);
});

test("nobody marked: no best deal, or a deal whose par is not made", () => {
  useLanguage("en");
  assert.equal(bestVsPar(match([null, null, null, null])).size, 0);
  assert.equal(bestVsPar(match([3, null, null, null])).size, 0);
  const { deals: _deals, best_vs_par: _best, ...old } = match([]);  // (a page before par)
  assert.equal(bestVsPar(old).size, 0);
});

test("the line in Norwegian and French, a decimal comma", () => {
  const best = bestVsPar(match([2, null, null, null]));
  useLanguage("nb");
  assert.deepEqual(bestHere(best, 2), ["Ann slo par mest her: +3,2"]);
  useLanguage("fr");
  assert.deepEqual(bestHere(best, 2), ["Ann a le plus battu le par ici : +3,2"]);
});
