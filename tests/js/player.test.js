// @ts-check
// The browser's player (issue 38): made once, kept in localStorage only, sent as a
// Bearer header; a key the server no longer knows is replaced by a new player.
import { test } from "node:test";
import assert from "node:assert/strict";

/** @type {Map<string, string>} */
const stored = new Map();
Object.assign(globalThis, {
  localStorage: {
    /** @param {string} k */
    getItem: (k) => stored.get(k) ?? null,
    /** @param {string} k @param {string} v */
    setItem: (k, v) => { stored.set(k, v); },
    /** @param {string} k */
    removeItem: (k) => { stored.delete(k); },
  },
});

const { ensurePlayer, playerId, playerKey, savePlayer, withPlayer } = await import("../../app/static/js/player.js");

/** @type {{ url: string, init: RequestInit }[]} */
let calls = [];
let made = 0;
/** A server: POST /api/players makes player n with key Kn; a room call with a key
 * other than `known` is refused as no_player. */
function server(known = "") {
  calls = [];
  globalThis.fetch = /** @type {typeof fetch} */ (async (url, init = {}) => {
    calls.push({ url: String(url), init });
    if (String(url) === "/api/players") {
      made += 1;
      return new Response(JSON.stringify({ player: `P${made}`, key: `K${made}`, name: "Ann" }), { status: 201 });
    }
    const auth = new Headers(init.headers).get("Authorization");
    if (known && auth !== `Bearer ${known}`) {
      return new Response(JSON.stringify({ error: { code: "no_player", message: "unknown key" } }), { status: 401 });
    }
    return new Response(JSON.stringify({ room: "abc", token: "T" }), { status: 201 });
  });
}

test("the player is made once, the first time the person names themself", async () => {
  stored.clear();
  server();
  assert.equal(playerKey(), null);
  const key = await ensurePlayer("Ann");
  assert.equal(await ensurePlayer("Ann"), key);
  assert.equal(calls.filter((c) => c.url === "/api/players").length, 1);
  assert.equal(playerKey(), key);
  // only the player's id and key are kept, under one name
  assert.deepEqual([...stored.keys()], ["amerikaner.player"]);
});

test("a room call carries the key as a Bearer header, never in the address", async () => {
  stored.clear();
  server();
  const { api } = await import("../../app/static/js/net.js");
  await withPlayer("Ann", (key) => api("POST", "/api/rooms", { name: "Ann" }, key));
  const room = calls.find((c) => c.url === "/api/rooms");
  assert.ok(room);
  const key = playerKey();
  assert.ok(key);
  assert.equal(new Headers(room.init.headers).get("Authorization"), `Bearer ${key}`);
  assert.ok(calls.every((c) => !c.url.includes(key)));
});

test("a key the server no longer knows is replaced by a new player", async () => {
  stored.clear();
  stored.set("amerikaner.player", JSON.stringify({ player: "old", key: "gone" }));
  server(`K${made + 1}`);
  const { api } = await import("../../app/static/js/net.js");
  const answer = await withPlayer("Ann", (key) => api("POST", "/api/rooms", { name: "Ann" }, key));
  assert.equal(answer.room, "abc");
  assert.equal(playerKey(), `K${made}`);
});

test("a room is made without a player when the server makes none now", async () => {
  stored.clear();
  calls = [];
  globalThis.fetch = /** @type {typeof fetch} */ (async (url, init = {}) => {
    calls.push({ url: String(url), init });
    if (String(url) === "/api/players") {
      return new Response(JSON.stringify({ error: { code: "rate_limited", message: "later" } }), { status: 429 });
    }
    return new Response(JSON.stringify({ room: "abc", token: "T" }), { status: 201 });
  });
  const { api } = await import("../../app/static/js/net.js");
  const answer = await withPlayer("Ann", (key) => api("POST", "/api/rooms", { name: "Ann" }, key));
  assert.equal(answer.room, "abc");
  assert.equal(playerKey(), null);
  const room = calls.find((c) => c.url === "/api/rooms");
  assert.ok(room);
  assert.equal(new Headers(room.init.headers).get("Authorization"), null);
});

test("the stored player's id beside its key (a club's seats name players by id)", () => {
  savePlayer({ player: "p-ann", key: "K-ann", name: "Ann" });
  assert.equal(playerId(), "p-ann");
  assert.equal(playerKey(), "K-ann");
  stored.set("amerikaner.player", "not json");
  assert.equal(playerId(), null);
  assert.equal(playerKey(), null);
  stored.delete("amerikaner.player");
});
