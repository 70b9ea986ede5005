// @ts-check
// The browser's player (issue 38): a secret key made the first time the person names
// themself (POST /api/players), kept in localStorage only and sent as
// `Authorization: Bearer` (never in a URL, a page or a log). Rooms made or joined with
// it bind the seat to the player; clubs know their members by it.

import { ApiError, api } from "./net.js";
import { ErrorCode } from "./protocol.js";

/** @typedef {import("./protocol.js").PlayerKey} PlayerKey */

const PLAYER_KEY = "amerikaner.player";

/** The stored player's key, or null when this browser has none.
 * @returns {string | null} */
export function playerKey() {
  try {
    const saved = JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
    return saved && typeof saved.key === "string" ? saved.key : null;
  } catch {
    return null;
  }
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

/** `call` with the player's key (made now, named `name`, if this browser has none); a
 * key the server no longer knows (the player deleted on another device, or by the
 * retention) is forgotten and a new player made for this one call's sake.
 * @template T
 * @param {string} name
 * @param {(key: string) => Promise<T>} call
 * @returns {Promise<T>} */
export async function withPlayer(name, call) {
  try {
    return await call(await ensurePlayer(name));
  } catch (error) {
    if (!(error instanceof ApiError && error.code === ErrorCode.NO_PLAYER)) throw error;
    forgetPlayer();
    return call(await ensurePlayer(name));
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
