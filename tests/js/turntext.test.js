// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { turnClock, turnText } from "../../app/static/js/controls.js";
import { CountdownKind, Phase } from "../../app/static/js/protocol.js";
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

test("a dropped person's wait is named, and the seconds counted are the turn's clock", () => {
  /** @type {[string, string][]} */
  const said = [["en", "Waiting for Bjørn to reconnect."],
    ["nb", "Venter på at Bjørn kobler seg til igjen."], ["fr", "En attente de la reconnexion de Bjørn."]];
  for (const [lang, words] of said) {
    useLanguage(lang);
    const view = makeView({ phase: Phase.PLAY, turn: 1 });
    view.room = { ...view.room, clock: { seat: 1, until: 1000, kind: CountdownKind.GRACE } };
    assert.equal(turnText(view), words);
    assert.equal(turnClock(view), 1000);
  }
  useLanguage("en");
  const timed = makeView({ phase: Phase.PLAY, turn: 0 });
  timed.room = { ...timed.room, clock: { seat: 0, until: 2000, kind: CountdownKind.TURN } };
  assert.equal(turnText(timed), "Your turn: play a card.");
  assert.equal(turnClock(timed), 2000);
  const other = makeView({ phase: Phase.PLAY, turn: 0 });
  other.room = { ...other.room, clock: { seat: 3, until: 2000, kind: CountdownKind.GRACE } };
  assert.equal(turnClock(other), null, "a clock for another seat is not this turn's");
});
