// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { newUiState, toggleDiscard } from "../../app/static/js/uistate.js";

test("each page state is its own: a selection in one is not in another", () => {
  const first = newUiState();
  const second = newUiState();
  first.discard.add("AS");
  assert.equal(second.discard.size, 0);
  assert.equal(first.hint, null);
  assert.equal(first.review, null);
});

test("choosing discards: at most the count, a second press puts a card back, complete at the count", () => {
  const chosen = new Set();
  assert.equal(toggleDiscard(chosen, "AS", 2), false);
  assert.equal(toggleDiscard(chosen, "KS", 2), true);
  assert.equal(toggleDiscard(chosen, "QS", 2), true, "a third card is refused; still complete");
  assert.deepEqual([...chosen], ["AS", "KS"]);
  assert.equal(toggleDiscard(chosen, "AS", 2), false);
  assert.deepEqual([...chosen], ["KS"]);
  assert.equal(toggleDiscard(chosen, "", 2), false);
  assert.equal(toggleDiscard(new Set(), "AS", 0), false, "no discard: never complete");
  assert.equal(toggleDiscard(new Set(), "AS", 1), true);
});
