// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { labelPositions, runningTotals, tieOffsets } from "../../app/static/js/scores.js";

test("running totals add each deal's points seat by seat", () => {
  assert.deepEqual(runningTotals([[5, -5, 0], [-3, 2, 8], [1, 1, 1]], 3),
    [[5, -5, 0], [2, -3, 8], [3, -2, 9]]);
  assert.deepEqual(runningTotals([], 4), []);
});

test("lines on the same value are spread 2.5 apart around it; a lone line stays", () => {
  assert.deepEqual(tieOffsets([4, 4, 9]), [-1.25, 1.25, 0]);
  assert.deepEqual(tieOffsets([0, 0, 0]), [-2.5, 0, 2.5]);
  assert.deepEqual(tieOffsets([1, 2, 3]), [0, 0, 0]);
});

test("end labels keep the gap between them, in the order of their lines", () => {
  // two lines ending at the same height: the second seat's label goes under the first
  assert.deepEqual(labelPositions([50, 50, 100], 11, 0, 200), [50, 61, 100]);
  // far apart: where they were asked
  assert.deepEqual(labelPositions([10, 80, 40], 11, 0, 200), [10, 80, 40]);
});

test("end labels stay inside the chart: pushed down from the top, up from the bottom", () => {
  assert.deepEqual(labelPositions([0, 2], 11, 14, 200), [14, 25]);
  assert.deepEqual(labelPositions([168, 168], 11, 14, 168), [157, 168]);
});
