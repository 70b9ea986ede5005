// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { shouldVibrate, vibrationWanted } from "../../app/static/js/turn.js";

test("the vibration switch is on unless the player turned it off", () => {
  assert.equal(vibrationWanted(null), true);
  assert.equal(vibrationWanted("1"), true);
  assert.equal(vibrationWanted("0"), false);
});

test("a turn vibrates only when wanted, possible, after a touch, on a touch screen", () => {
  const all = { wanted: true, supported: true, touched: true, coarse: true };
  assert.equal(shouldVibrate(all), true);
  for (const fact of /** @type {const} */ (["wanted", "supported", "touched", "coarse"])) {
    assert.equal(shouldVibrate({ ...all, [fact]: false }), false, fact);
  }
});
