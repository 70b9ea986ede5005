// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { joinableSeats, watchingText } from "../../app/static/js/joinpanel.js";
import { Phase } from "../../app/static/js/protocol.js";
import { makeView, seatInfo, useLanguage } from "./helpers.js";

/** A watcher's view: no seat, seats as given.
 * @param {import("../../app/static/js/protocol.js").PhaseValue} phase
 * @param {import("../../app/static/js/protocol.js").SeatInfo[]} seats */
function watching(phase, seats) {
  const view = makeView({ phase, you: null });
  return { ...view, room: { ...view.room, your_seat: null, you_are_host: false, seats } };
}

const ANN = seatInfo(0, "Ann");
const BOTS = [ANN, seatInfo(1, null), seatInfo(2, null), seatInfo(3, null)];

test("after the start every bot seat can be taken, and the text says so (issue 39)", () => {
  const view = watching(Phase.PLAY, BOTS);
  assert.deepEqual(joinableSeats(view), [1, 2, 3]);
  for (const lang of ["en", "nb", "fr"]) {
    useLanguage(lang);
    const text = watchingText(view);
    assert.match(text, /3/, lang);
    assert.notEqual(text, watchingText(watching(Phase.PLAY, BOTS.map((s) => seatInfo(s.seat, `P${s.seat}`)))), lang);
  }
  useLanguage("en");
  assert.doesNotMatch(watchingText(view), /when a seat is free/);
  assert.match(watchingText(view), /deal under way/);
});

test("a seat someone has claimed, or a person's, is not offered", () => {
  const claimed = { ...seatInfo(2, "Bot 3"), human: true, takeover: true, joining: "Cy" };
  const view = watching(Phase.AUCTION, [ANN, seatInfo(1, null), claimed, seatInfo(3, "Dag")]);
  assert.deepEqual(joinableSeats(view), [1]);
  useLanguage("en");
  assert.match(watchingText(view), /one seat/);
});

test("in the lobby empty seats are free; at a practice table nothing is", () => {
  const lobby = watching(Phase.LOBBY, [ANN, { ...seatInfo(1, null), bot: null }, seatInfo(2, null), seatInfo(3, null)]);
  assert.deepEqual(joinableSeats(lobby), [1, 2, 3]);
  useLanguage("en");
  assert.match(watchingText(lobby), /3 seats are free/);
  const practice = { ...lobby, room: { ...lobby.room, practice: true } };
  assert.deepEqual(joinableSeats(practice), []);
  assert.match(watchingText(practice), /when a seat is free/);
});
