// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { earlierMatches } from "../../app/static/js/scoresheet.js";
import { Phase } from "../../app/static/js/protocol.js";
import { makeView } from "./helpers.js";

/** @typedef {import("../../app/static/js/protocol.js").MatchSummary} MatchSummary */
/** @typedef {import("../../app/static/js/protocol.js").View} View */

/** @param {number} number
 * @returns {MatchSummary} */
function summary(number) {
  return { number, players: ["Anna", "Bjørn", "Bot 3", "Chloé"], score_sheet: [[1, 2, 3, 4]],
    totals: [1, 2, 3, 4], winners: [3], reviewable: [0], from_deal: [0, 0, 0, 0] };
}

test("Earlier matches leaves out the match the sheet still shows", () => {
  const history = [summary(1), summary(2)];
  /** @param {string} phase
   * @param {number} match */
  const view = (phase, match) => {
    const v = makeView({ phase: /** @type {View["phase"]} */ (phase), score_sheet: [[1, 2, 3, 4]] });
    v.room = { ...v.room, history, match_number: match };
    return v;
  };
  // match 2 just ended: its sheet is on screen, only match 1 is earlier
  assert.deepEqual(earlierMatches(view(Phase.MATCH_OVER, 2)).map((m) => m.number), [1]);
  // a third match is on: both are earlier, newest first
  assert.deepEqual(earlierMatches(view(Phase.PLAY, 3)).map((m) => m.number), [2, 1]);
  // back in the lobby no sheet is shown: both are earlier
  assert.deepEqual(earlierMatches(view(Phase.LOBBY, 2)).map((m) => m.number), [2, 1]);
});
