// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { turnText } from "../../app/static/js/controls.js";
import { Phase } from "../../app/static/js/protocol.js";
import { makeView, useLanguage } from "./helpers.js";

test("the status line says whose turn it is and what they do, by phase", () => {
  useLanguage("en");
  assert.equal(turnText(makeView({ phase: Phase.AUCTION, turn: 0 })), "Your turn: bid or pass.");
  assert.equal(turnText(makeView({ phase: Phase.PLAY, turn: 1 })), "Bjørn is playing.");
  assert.equal(turnText(makeView({ phase: Phase.PLAY, turn: null })), "");
});

test("the lobby waits for the host; a guest reads so", () => {
  useLanguage("en");
  const guest = makeView({ phase: Phase.LOBBY, turn: null });
  guest.room = { ...guest.room, you_are_host: false };
  assert.equal(turnText(guest), "Waiting for the host to start.");
});
