// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { number, pluralCategory, shortName, signed, signedDecimal } from "../../app/static/js/format.js";

test("points carry their sign, zero none", () => {
  assert.equal(signed(7), "+7");
  assert.equal(signed(-7), "-7");
  assert.equal(signed(0), "0");
});

test("a difference: the points' minus sign, one decimal in the language, no -0", () => {
  assert.equal(signedDecimal(3.24, "en"), "+3.2");
  assert.equal(signedDecimal(-1.5, "nb"), "-1,5");
  assert.equal(signedDecimal(-1.5, "fr"), "-1,5");
  assert.equal(signedDecimal(-10, "en"), signed(-10));
  assert.equal(signedDecimal(-0.04, "en"), "0");
  assert.equal(signedDecimal(0, "fr"), "0");
});

test("a long name is cut to ten characters and an ellipsis, a short one kept", () => {
  assert.equal(shortName("Anna"), "Anna");
  assert.equal(shortName("Elevenchars"), "Elevenchars");
  assert.equal(shortName("Twelve chars"), "Twelve cha…");
});

test("a number in each language: its decimal separator, one decimal at most", () => {
  assert.equal(number(10.9, "en"), "10.9");
  assert.equal(number(10.9, "nb"), "10,9");
  assert.equal(number(10.9, "fr"), "10,9");
  assert.equal(number(7, "fr"), "7");
  assert.equal(number(1.25, "en"), "1.3");
  assert.equal(number(8.04, "nb"), "8");
});

test("plural categories by the language's rules, as the number is written", () => {
  /** @param {string} lang */
  const of = (lang) => [0, 1, 2, 5].map((n) => pluralCategory(n, lang));
  assert.deepEqual(of("en"), ["other", "one", "other", "other"]);
  assert.deepEqual(of("nb"), ["other", "one", "other", "other"]);
  assert.deepEqual(of("fr"), ["one", "one", "other", "other"]);
  // French counts 1,5 as one ("1,5 pli"); English does not ("1.5 tricks")
  assert.equal(pluralCategory(1.5, "fr"), "one");
  assert.equal(pluralCategory(1.5, "en"), "other");
  // 1.04 is written "1": it is one
  assert.equal(pluralCategory(1.04, "en"), "one");
});
