// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { clubFrom, clubRoomLink } from "../../app/static/js/roomgone.js";

test("a club's link to its room names the club, and the room page reads it back", () => {
  const link = clubRoomLink("k3x9q", "cAb-9_z");
  assert.equal(link, "/r/k3x9q?club=cAb-9_z");
  assert.equal(clubFrom(new URL(link, "http://x").search), "cAb-9_z");
});

test("a room page reached otherwise has no club to lead back to", () => {
  assert.equal(clubFrom(""), null);
  assert.equal(clubFrom("?invite=abc"), null);
  // nothing but a club id's letters: never a path or an address of some other place
  assert.equal(clubFrom("?club=..%2Fapi"), null);
  assert.equal(clubFrom("?club=https%3A%2F%2Fevil.example"), null);
  assert.equal(clubFrom("?club="), null);
});
