// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { shortName, signed } from "../../app/static/js/format.js";

test("points carry their sign, zero none", () => {
  assert.equal(signed(7), "+7");
  assert.equal(signed(-7), "-7");
  assert.equal(signed(0), "0");
});

test("a long name is cut to ten characters and an ellipsis, a short one kept", () => {
  assert.equal(shortName("Anna"), "Anna");
  assert.equal(shortName("Elevenchars"), "Elevenchars");
  assert.equal(shortName("Twelve chars"), "Twelve cha…");
});
