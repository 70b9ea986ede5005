// @ts-check
// The socket comes back after a close unless the same hello would be refused again.
import { test } from "node:test";
import assert from "node:assert/strict";

import { comesBack } from "../../app/static/js/net.js";
import { CloseCode } from "../../app/static/js/protocol.js";

test("a refused hello, an unknown room or a flood end the connection for good", () => {
  for (const code of [CloseCode.NO_HELLO, CloseCode.BAD_TOKEN, CloseCode.PRIVATE,
    CloseCode.NO_ROOM, CloseCode.CROWDED, CloseCode.FLOOD]) {
    assert.equal(comesBack(code), false, String(code));
  }
});

test("a client dropped for reading too slowly, a restart or a reload comes back", () => {
  for (const code of [CloseCode.TOO_SLOW, CloseCode.GOING_AWAY, CloseCode.TRY_AGAIN,
    CloseCode.FAILED, 1006, 1000]) {
    assert.equal(comesBack(code), true, String(code));
  }
});
