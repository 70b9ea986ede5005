// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { newUiState } from "../../app/static/js/uistate.js";

test("each page state is its own: a selection in one is not in another", () => {
  const first = newUiState();
  const second = newUiState();
  first.discard.add("AS");
  assert.equal(second.discard.size, 0);
  assert.equal(first.hint, null);
  assert.equal(first.review, null);
});
