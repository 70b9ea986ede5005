// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { firstCall } from "../../app/static/js/controls.js";

/** @typedef {import("../../app/static/js/payloads.js").Action} Action */

// Leading the five of hearts while holding the ace: the calls are the hearts in other
// hands, listed low to high as the server lists them; grand offers the same calls.
/** @type {Action[]} */
const LEGAL = [
  ...["2H", "7H", "TH", "QH", "KH"].map((call) => ({ play: "5H", call })),
  ...["2H", "7H", "TH", "QH", "KH"].map((call) => ({ play: "5H", call, grand: true })),
  ...["3S", "JS"].map((call) => ({ play: "AS", call })),
  { play: "4C", call: null },
];

test("the keyboard's call starts at the highest card of the suit the player can call", () => {
  assert.equal(firstCall(LEGAL, "5H", false, null), "KH");
  assert.equal(firstCall(LEGAL, "5H", true, null), "KH");
  assert.equal(firstCall(LEGAL, "AS", false, null), "JS");
  // the ten is above the nine, the ace above the king (rank order, not letters)
  assert.equal(firstCall([{ play: "2D", call: "9D" }, { play: "2D", call: "TD" }], "2D", false, null), "TD");
  assert.equal(firstCall([{ play: "2D", call: "KD" }, { play: "2D", call: "AD" }], "2D", false, null), "AD");
});

test("the practice hint's call comes first when it leads the same card", () => {
  assert.equal(firstCall(LEGAL, "5H", false, { play: "5H", call: "QH" }), "QH");
  // a hint for another lead, or a call that is not offered, changes nothing
  assert.equal(firstCall(LEGAL, "5H", false, { play: "AS", call: "JS" }), "KH");
  assert.equal(firstCall(LEGAL, "5H", false, { play: "5H", call: "AH" }), "KH");
});

test("no call to start at: a lead without a call, or a card not led", () => {
  assert.equal(firstCall(LEGAL, "4C", false, null), null);
  assert.equal(firstCall(LEGAL, "9D", false, null), null);
  assert.equal(firstCall([], "5H", false, null), null);
});
