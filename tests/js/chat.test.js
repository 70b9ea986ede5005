// @ts-check
// Who may write in the chat, as the page decides it (the server refuses the others).
import { test } from "node:test";
import assert from "node:assert/strict";
import { maySpeak } from "../../app/static/js/chat.js";
import { makeView } from "./helpers.js";

/** The room of ``makeView`` with these settings changed, seen from ``seat``.
 * @param {number | null} seat @param {Record<string, unknown>} settings */
function room(seat, settings = {}) {
  const view = makeView();
  return { ...view.room, your_seat: seat, settings: { ...view.room.settings, ...settings } };
}

test("a seated person may write; a spectator while the host allows it", () => {
  assert.equal(maySpeak(room(0)), true);
  assert.equal(maySpeak(room(null)), true);
  assert.equal(maySpeak(room(null, { spectator_chat: false })), false);
  assert.equal(maySpeak(room(0, { spectator_chat: false })), true);
});
