// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { standInSummary } from "../../app/static/js/standin.js";
import { useLanguage } from "./helpers.js";

/** @typedef {import("../../app/static/js/protocol.js").ActionJson} ActionJson */

/** @type {ActionJson[]} */
const AWAY = [{ bid: "pass" }, { play: "7H" }, { play: "KS" }];

test("the stand-in's moves in one sentence, in en, nb and fr", () => {
  /** @type {[string, string][]} */
  const said = [
    ["en", "While you were away, a bot played for you: passed in the auction; played Seven of hearts, King of spades."],
    ["nb", "Mens du var borte, spilte en robot for deg: passet; spilte hjerter sju, spar konge."],
    ["fr", "Pendant votre absence, un robot a joué pour vous : a passé aux enchères ; a joué le sept de cœur, le roi de pique."],
  ];
  for (const [code, sentence] of said) {
    useLanguage(code);
    assert.equal(standInSummary(AWAY), sentence);
  }
});

test("a discard, a lead with its call and nothing at all", () => {
  useLanguage("en");
  const text = standInSummary([{ discard: ["2C", "3C"] }, { play: "AS", call: "KS" }, { play: "4H" }]);
  assert.match(text, /discarded Two of clubs, Three of clubs; played Ace of spades; called King of spades; played Four of hearts\.$/);
  assert.equal(standInSummary([]), "");
});
