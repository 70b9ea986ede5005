// @ts-check
// The socket comes back after a close unless the same hello would be refused again.
import { test } from "node:test";
import assert from "node:assert/strict";

import { comesBack, parseRetryAfter, retryDelay } from "../../app/static/js/net.js";
import { CloseCode } from "../../app/static/js/protocol.js";

test("a refused hello, an unknown room or a flood end the connection for good", () => {
  for (const code of [CloseCode.NO_HELLO, CloseCode.BAD_TOKEN, CloseCode.PRIVATE,
    CloseCode.NO_ROOM, CloseCode.CROWDED, CloseCode.FLOOD]) {
    assert.equal(comesBack(code), false, String(code));
  }
});

test("a client dropped for reading too slowly, a restart or a reload comes back", () => {
  for (const code of [CloseCode.TOO_SLOW, CloseCode.GOING_AWAY, CloseCode.TRY_AGAIN,
    CloseCode.FAILED, CloseCode.SERVICE_RESTART, 1006, 1000]) {
    assert.equal(comesBack(code), true, String(code));
  }
});

test("the backoff doubles up to its cap, half to all of each step at random", () => {
  const low = () => 0;
  const high = () => 0.999999;
  assert.equal(retryDelay(0, null, low), 250);
  assert.ok(retryDelay(0, null, high) < 500);
  assert.equal(retryDelay(1, null, low), 500);
  assert.equal(retryDelay(3, null, low), 2000);
  assert.equal(retryDelay(10, null, low), 7500);  // capped at 15 s steps
  assert.ok(retryDelay(40, null, high) < 15000);
});

test("a Retry-After is the least wait, with jitter above it", () => {
  assert.equal(retryDelay(0, 1, () => 0), 1000);
  const [low, mid, high] = [0, 0.5, 0.99].map((r) => retryDelay(0, 1, () => r));
  assert.ok(low !== undefined && mid !== undefined && high !== undefined);
  assert.ok(low < mid && mid < high && high < 1250, String([low, mid, high]));
  // a long backoff is not shortened by a short Retry-After
  assert.equal(retryDelay(4, 1, () => 0), 4000);
  assert.equal(retryDelay(0, 0, () => 0), 250);
});

test("Retry-After is read as seconds or an HTTP date, and bounded", () => {
  const now = Date.parse("2026-12-03T09:00:00Z");
  assert.equal(parseRetryAfter("1", now), 1);
  assert.equal(parseRetryAfter(" 5 ", now), 5);
  assert.equal(parseRetryAfter("Thu, 03 Dec 2026 09:00:03 GMT", now), 3);
  assert.equal(parseRetryAfter("Thu, 03 Dec 2026 08:59:00 GMT", now), 0);  // past
  assert.equal(parseRetryAfter("3600", now), 60);  // not believed beyond a minute
  for (const bad of [null, undefined, "", "soon", "-1", "1.5", "Someday"]) {
    assert.equal(parseRetryAfter(bad, now), null, String(bad));
  }
});
