// @ts-check
// The browser's player (issue 38): a secret key made the first time the person names
// themself (POST /api/players), kept in localStorage only and sent as
// `Authorization: Bearer` (never in a URL, a page or a log). Rooms made or joined with
// it bind the seat to the player; clubs know their members by it.

import { ApiError, api } from "./net.js";
import { ErrorCode } from "./protocol.js";

/** @typedef {import("./protocol.js").PlayerKey} PlayerKey */

const PLAYER_KEY = "amerikaner.player";

/** A field of the stored player (`key` or `player`), or null when this browser has none.
 * @param {"key" | "player"} field
 * @returns {string | null} */
function stored(field) {
  try {
    const saved = JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
    return saved && typeof saved[field] === "string" ? saved[field] : null;
  } catch {
    return null;
  }
}

/** The stored player's key, or null when this browser has none.
 * @returns {string | null} */
export function playerKey() {
  return stored("key");
}

/** The stored player's id (who they are in a club's seats), or null.
 * @returns {string | null} */
export function playerId() {
  return stored("player");
}

/** Keep a player's key (POST /api/players, or a claimed device code).
 * @param {PlayerKey} answer */
export function savePlayer(answer) {
  localStorage.setItem(PLAYER_KEY, JSON.stringify({ player: answer.player, key: answer.key }));
}

export function forgetPlayer() {
  localStorage.removeItem(PLAYER_KEY);
}

/** True for the server's answer to a key it does not know (deleted, or expired).
 * @param {unknown} error */
export function unknownKey(error) {
  return error instanceof ApiError && error.status === 401;
}

/** The player's key, made now (named `name`) if this browser has none.
 * @param {string} name
 * @returns {Promise<string>} */
export async function ensurePlayer(name) {
  const key = playerKey();
  if (key) return key;
  /** @type {PlayerKey} */
  const made = await api("POST", "/api/players", { name });
  savePlayer(made);
  return made.key;
}

/** The player's key as `ensurePlayer` makes it, or undefined when the server will not
 * make one now (429: this address made its players of the minute, as a school's or a
 * café's shared address may; 503: the database does not answer). A table needs no
 * player: the person plays on, their seat bound to no player this time.
 * @param {string} name
 * @returns {Promise<string | undefined>} */
async function keyIfMade(name) {
  try {
    return await ensurePlayer(name);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 429 || error.status === 503)) return undefined;
    throw error;
  }
}

/** `call` with the player's key (made now, named `name`, if this browser has none; none
 * if the server will not make one now); a key the server no longer knows (the player
 * deleted on another device, or by the retention) is forgotten and a new player made
 * for this one call's sake.
 * @template T
 * @param {string} name
 * @param {(key: string | undefined) => Promise<T>} call
 * @returns {Promise<T>} */
export async function withPlayer(name, call) {
  try {
    return await call(await keyIfMade(name));
  } catch (error) {
    if (!(error instanceof ApiError && error.code === ErrorCode.NO_PLAYER)) throw error;
    forgetPlayer();
    return call(await keyIfMade(name));
  }
}

/** Call the API as the player; a key the server no longer knows is forgotten.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>} */
export async function asPlayer(method, path, body) {
  const key = playerKey();
  if (!key) throw new ApiError(401, "no_player", "no player in this browser");
  try {
    return await api(method, path, body, key);
  } catch (error) {
    if (unknownKey(error)) forgetPlayer();
    throw error;
  }
}
