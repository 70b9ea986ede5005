// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { waitLine } from "../../app/static/js/result.js";
import { Phase } from "../../app/static/js/protocol.js";
import { makeView, seatInfo, useLanguage } from "./helpers.js";

/** @typedef {import("../../app/static/js/protocol.js").View} View */

/** Anna (seat 0, host) and Bjørn, Chloé at the table after a deal or a match.
 * @param {string} phase
 * @param {Partial<View["room"]>} room
 * @param {Record<number, object>} seats changes to seats 0, 1, 3 */
function table(phase, room, seats) {
  const view = makeView({ phase: /** @type {View["phase"]} */ (phase) });
  const infos = [seatInfo(0, "Anna"), seatInfo(1, "Bjørn"), seatInfo(2, null), seatInfo(3, "Chloé")]
    .map((s) => ({ ...s, ...(seats[s.seat] || {}) }));
  view.room = { ...view.room, your_seat: 0, ...room, seats: infos };
  return view;
}

test("at a deal's end, ready, you read whom the table waits for, by name", () => {
  /** @type {[string, string, string][]} */
  const said = [["en", "Waiting for: Bjørn, Chloé", "Waiting for the others."],
    ["nb", "Venter på: Bjørn, Chloé", "Venter på de andre."],
    ["fr", "En attente de : Bjørn, Chloé", "En attente des autres."]];
  for (const [code, named, everyone] of said) {
    useLanguage(code);
    assert.equal(waitLine(table(Phase.DEAL_OVER, {}, { 0: { ready: true } })), named);
    // the others ready (or gone): nobody left to name
    assert.equal(waitLine(table(Phase.DEAL_OVER, {}, { 0: { ready: true }, 1: { ready: true },
      3: { connected: false } })), everyone);
  }
  useLanguage("en");
  assert.equal(waitLine(table(Phase.DEAL_OVER, {}, {})), null);  // not ready yet: the button
});

test("after the host's Rematch the countdown alone: nobody is still waited for", () => {
  useLanguage("en");
  const guest = { your_seat: 1, you_are_host: false };
  const before = table(Phase.MATCH_OVER, guest, { 1: { again: true } });
  assert.equal(waitLine(before), "Waiting for: Anna, Chloé");
  const starting = table(Phase.MATCH_OVER, { ...guest, next_deal_at: Date.now() / 1000 + 4 },
    { 1: { again: true } });
  assert.equal(waitLine(starting), null);
  assert.equal(waitLine(table(Phase.MATCH_OVER, { ...guest, next_deal_at: 5 }, {})), null);
});
