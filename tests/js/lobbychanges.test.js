// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { lobbyChangeMessage, sameRules } from "../../app/static/js/lobbychanges.js";

/** @typedef {import("../../app/static/js/rulesmeta.js").RulesMeta} RulesMeta */

/** A change of a control: its kind, value, ticked or not, data attributes.
 * @param {string} kind @param {string} value @param {Record<string, string>} data
 * @param {boolean} [checked] */
function change(kind, value, data, checked = false) {
  return { kind, value, checked, data };
}

const RULES = { preset: "standard", hand_size: 10, kitty_trick: true };
/** Only what a rule's change reads: a choice's values, of their own type. */
const META = /** @type {RulesMeta} */ (/** @type {unknown} */ ({
  options: { trump_rank: { type: "choice", values: [2, 3, "A"], default: 2 } },
}));

test("a rule option's change sends the whole rule set with that option changed", () => {
  const rule = (/** @type {string} */ option, /** @type {string} */ type) => ({ option, type });
  assert.deepEqual(lobbyChangeMessage(change("rule", "12", rule("hand_size", "int")), RULES, META),
    { type: "rules", rules: { ...RULES, hand_size: 12 } });
  assert.deepEqual(lobbyChangeMessage(change("rule", "on", rule("kitty_trick", "bool"), false), RULES, META),
    { type: "rules", rules: { ...RULES, kitty_trick: false } });
  assert.deepEqual(lobbyChangeMessage(change("rule", "deals:8", rule("match", "match")), RULES, META),
    { type: "rules", rules: { ...RULES, match: "deals:8" } });
  // a choice's value as the rules have it (a number stays a number), not the select's text
  assert.deepEqual(lobbyChangeMessage(change("rule", "3", rule("trump_rank", "choice")), RULES, META),
    { type: "rules", rules: { ...RULES, trump_rank: 3 } });
  // an emptied number field: the option is the preset's (or derived) again
  assert.deepEqual(lobbyChangeMessage(change("rule", "", rule("hand_size", "int_or_derived")), RULES, META),
    { type: "rules", rules: { preset: "standard", kitty_trick: true } });
  assert.deepEqual(RULES, { preset: "standard", hand_size: 10, kitty_trick: true }, "the view's rules untouched");
});

test("a preset replaces the rules; a seat's bot level names its seat", () => {
  assert.deepEqual(lobbyChangeMessage(change("preset", "classic", {}), RULES, null),
    { type: "rules", rules: { preset: "classic" } });
  assert.deepEqual(lobbyChangeMessage(change("seat-bot", "strong", { seat: "2" }), RULES, null),
    { type: "seat_bot", seat: 2, level: "strong" });
});

test("a setting: on/off, the bots' pace, or a whole number (else nothing is sent)", () => {
  const setting = (/** @type {string} */ name, /** @type {string} */ kind) => ({ setting: name, kind });
  assert.deepEqual(lobbyChangeMessage(change("settings", "on", setting("spectator_chat", "bool"), true), RULES, null),
    { type: "settings", spectator_chat: true });
  assert.deepEqual(lobbyChangeMessage(change("settings", "fast", setting("bot_pace", "choice")), RULES, null),
    { type: "settings", bot_pace: "fast" });
  assert.deepEqual(lobbyChangeMessage(change("settings", "30", setting("grace_seconds", "int")), RULES, null),
    { type: "settings", grace_seconds: 30 });
  for (const value of ["", "2.5", "x"]) {
    assert.equal(lobbyChangeMessage(change("settings", value, setting("grace_seconds", "int")), RULES, null), null, value);
  }
});

test("a kind that is no lobby control sends nothing", () => {
  assert.equal(lobbyChangeMessage(change("grand", "on", {}, true), RULES, null), null);
});

test("rule sets are the same whatever the order of their options", () => {
  assert.ok(sameRules({ preset: "standard", grand: true }, { grand: true, preset: "standard" }));
  assert.ok(!sameRules({ preset: "standard", grand: true }, { preset: "standard" }));
  assert.ok(!sameRules({ preset: "standard", target: 52 }, { preset: "standard", target: 50 }));
  assert.ok(!sameRules({ preset: "standard" }, { preset: "guide" }));
});
