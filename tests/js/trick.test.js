// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { holdMs, stripTrick } from "../../app/static/js/trick.js";
import { BotPace, Phase } from "../../app/static/js/protocol.js";
import { makeView } from "./helpers.js";

/** @typedef {import("../../app/static/js/protocol.js").LastTrick} LastTrick */

/** @param {string[]} cards
 * @returns {LastTrick} */
function trick(cards) {
  return { cards: cards.map((card, seat) => ({ seat, card })), winner: 0 };
}

test("the Last trick strip: the latest finished trick, the one before while it is held", () => {
  const first = trick(["AS", "2S", "3S", "4S"]);
  const second = trick(["AH", "2H", "3H", "4H"]);
  const view = makeView({ tricks: [first, second], last_trick: second });
  assert.equal(stripTrick(view, null), second);
  assert.equal(stripTrick(view, second), first);
  assert.equal(stripTrick(makeView({ tricks: [first], last_trick: first }), first), null);
  assert.equal(stripTrick(makeView({ tricks: [], last_trick: second }), null), second);
  assert.equal(stripTrick(makeView(), null), null);
});

test("back in the lobby the strip shows nothing, whatever the view still holds", () => {
  const last = trick(["AS", "2S", "3S", "4S"]);
  assert.equal(stripTrick(makeView({ phase: Phase.LOBBY, tricks: [last], last_trick: last }), null), null);
  assert.equal(stripTrick(makeView({ phase: Phase.MATCH_OVER, tricks: [last], last_trick: last }), null), last);
});

test("a finished trick stays in view at least 1.2 s, longer at a slower bot pace", () => {
  assert.equal(holdMs(BotPace.FAST), 1200);
  assert.ok(holdMs(BotPace.NORMAL) >= 1200 && holdMs(BotPace.NORMAL) <= 2000);
  assert.ok(holdMs(BotPace.RELAXED) > holdMs(BotPace.NORMAL));
  assert.ok(holdMs(BotPace.NORMAL) > holdMs(BotPace.FAST));
  assert.equal(holdMs(null), holdMs(BotPace.NORMAL));
});
