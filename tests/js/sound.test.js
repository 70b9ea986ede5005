// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { SOUNDS, eventSounds } from "../../app/static/js/sound.js";

/** @typedef {import("../../app/static/js/protocol.js").StateEvent} Event */

/** @param {string} type
 * @returns {Event} */
const event = (type) => /** @type {Event} */ (/** @type {unknown} */ ({ type }));

test("a trick taken and a deal's end each have their sound, the last trick in the end's", () => {
  assert.deepEqual(eventSounds([]), []);
  assert.deepEqual(eventSounds([event("card_played")]), []);
  assert.deepEqual(eventSounds([event("card_played"), event("trick_won")]), ["trick"]);
  assert.deepEqual(eventSounds([event("trick_won"), event("deal_scored")]), ["deal_end"]);
  assert.deepEqual(eventSounds([event("deal_void")]), ["deal_end"]);
  assert.deepEqual(eventSounds([event("bid"), event("chat")]), []);
});

test("the sounds differ from each other and the turn's comes last in a frame", () => {
  const firsts = Object.values(SOUNDS).map((notes) => notes[0]);
  assert.equal(new Set(firsts).size, firsts.length);
  assert.deepEqual(Object.keys(SOUNDS).at(-1), "turn");
});
