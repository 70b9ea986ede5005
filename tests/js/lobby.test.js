// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { botLevelLines, turnTimeLabel, valueLabel } from "../../app/static/js/lobby.js";
import { useLanguage } from "./helpers.js";

test("option values as players read them", () => {
  useLanguage("en");
  assert.equal(valueLabel("kitty_trick", true), "on");
  assert.equal(valueLabel("kitty_trick", false), "off");
  assert.equal(valueLabel("match", "deals:8"), "8 deals");
  assert.equal(valueLabel("match", "deals:1"), "1 deal");
  assert.equal(valueLabel("hand_size", 12), "12");
});

test("the turn timer: off, or its seconds", () => {
  useLanguage("en");
  assert.notEqual(turnTimeLabel(0), turnTimeLabel(30));
  assert.match(turnTimeLabel(30), /30/);
});

test("the lobby says what each bot level plays like, in every language", () => {
  for (const lang of ["en", "nb", "fr"]) {
    useLanguage(lang);
    const lines = botLevelLines(["random", "easy", "normal", "strong"]);
    const meanings = lines.map(([, about]) => about);
    assert.equal(lines.length, 4, lang);
    assert.equal(new Set(meanings).size, 4, `${lang}: one description a level`);
    assert.ok(meanings.every((m) => m.length > 20 && !m.startsWith("bot.about")), lang);
  }
});
