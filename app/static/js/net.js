// @ts-check
// The connection to the room: HTTP calls, the WebSocket and reconnecting.
//
// The WebSocket reconnects by itself with exponential backoff (capped, with jitter so a
// restarted server is not hit by every table at once), and at once when the tab comes
// back into view or the network returns.  The first message always authenticates; the
// token lives in localStorage per room code, never in a URL.
//
// A server that cannot serve a room just now (another process is taking it over, or it
// is restarting) answers 503 with Retry-After.  A browser cannot read the headers of a
// refused WebSocket handshake (it only sees the close, 1006), so after such a close the
// client asks the room over HTTP, which can: its Retry-After is the least it waits before
// the next attempt (with jitter above it).  HTTP calls answered 503 with Retry-After are
// tried again the same way, a few times (a 503 changed nothing on the server).

import { serverMessage } from "./i18n.js";
import { FINAL_CLOSE_CODES } from "./protocol.js";

/** @typedef {import("./protocol.js").ServerFrame} ServerFrame */
/** @typedef {import("./protocol.js").ClientMessage} ClientMessage */
/** @typedef {"connecting" | "open" | "retrying" | "closed"} Status */

const TOKEN_PREFIX = "amerikaner.token.";
const ABNORMAL = 1006;  // closed without a close frame: a refused handshake, a cut

/** @param {string} code */
export function savedToken(code) {
  return localStorage.getItem(TOKEN_PREFIX + code);
}

/** @param {string} code
 * @param {string} token */
export function saveToken(code, token) {
  localStorage.setItem(TOKEN_PREFIX + code, token);
}

/** @param {string} code */
export function forgetToken(code) {
  localStorage.removeItem(TOKEN_PREFIX + code);
}

/** The server's refusal of an HTTP call: its status, stable code and message. */
export class ApiError extends Error {
  /** @param {number} status
   * @param {string} code
   * @param {string} message
   * @param {Record<string, string | number>} [params] the facts the message states */
  constructor(status, code, message, params = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.params = params;
  }
}

/** A failed call's message for the player: the server's, translated by its code.
 * @param {unknown} error */
export function errorMessage(error) {
  if (error instanceof ApiError) return serverMessage(error.code, error.message);
  return serverMessage("network", error instanceof Error ? error.message : String(error));
}

const FIRST_RETRY_MS = 500;  // the first backoff step (the wait is half to all of it)
const LONGEST_RETRY_MS = 15000;
const LONGEST_RETRY_AFTER_S = 60;  // a larger Retry-After is not believed
const API_RETRIES = 3;  // HTTP calls answered 503 with Retry-After

/** The seconds a Retry-After header asks for (a number of seconds, or an HTTP date);
 * `null` when there is none or it is not one of those.
 * @param {string | null | undefined} value
 * @param {number} [now] epoch milliseconds
 * @returns {number | null} */
export function parseRetryAfter(value, now = Date.now()) {
  if (value == null) return null;
  const text = value.trim();
  let seconds;
  if (/^\d+$/.test(text)) {
    seconds = Number(text);
  } else if (/^[A-Za-z]{3}/.test(text)) {  // an HTTP date starts with the day's name
    const at = Date.parse(text);
    if (Number.isNaN(at)) return null;
    seconds = Math.max(0, (at - now) / 1000);
  } else {
    return null;
  }
  return Math.min(seconds, LONGEST_RETRY_AFTER_S);
}

/** How long to wait before attempt number `attempt` + 1 (milliseconds): exponential
 * backoff, half to all of the step at random (so tables do not come back in step), and
 * at least what the server asked for (`retryAfter` seconds), again with jitter above it.
 * @param {number} attempt attempts that failed in a row before this wait (0: the first)
 * @param {number | null} [retryAfter] the server's Retry-After, in seconds
 * @param {() => number} [random] in [0, 1)
 * @returns {number} */
export function retryDelay(attempt, retryAfter = null, random = Math.random) {
  const step = Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** attempt);
  const backoff = step / 2 + random() * (step / 2);
  if (retryAfter == null) return backoff;
  return Math.max(backoff, retryAfter * 1000 + random() * (step / 2));
}

/** @param {number} ms */
function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Call the JSON API; throws ApiError with the server's code and message.  A 503 with
 * Retry-After (the room is being taken over, the server restarts) is tried again after
 * the wait it asks for, up to API_RETRIES times.
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {string} [token]
 * @returns {Promise<any>} the answer's JSON */
export async function api(method, path, body, token) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  /** @type {RequestInit} */
  const init = { method, headers };
  if (body !== undefined) init.body = JSON.stringify(body);
  let response = await fetch(path, init);
  for (let attempt = 0; response.status === 503 && attempt < API_RETRIES; attempt++) {
    const retryAfter = parseRetryAfter(response.headers.get("Retry-After"));
    if (retryAfter === null) break;
    await sleep(retryDelay(attempt, retryAfter));
    response = await fetch(path, init);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(response.status, error.code || "http_" + response.status,
      error.message || response.statusText, error.params || {});
  }
  return data;
}

/** Whether the socket comes back after the server closed it with `code` (not after a
 *  refusal the same hello would meet again, nor after a flood).
 * @param {number} code */
export function comesBack(code) {
  return !(/** @type {readonly number[]} */ (FINAL_CLOSE_CODES)).includes(code);
}

export class Connection {
  /**
   * @param {string} code room code
   * @param {{ onMessage: (message: ServerFrame) => void,
   *   onStatus: (status: Status, detail?: CloseEvent | "offline") => void }} handlers
   */
  constructor(code, { onMessage, onStatus }) {
    this.code = code;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.attempt = 0;
    /** @type {number | undefined} */
    this.timer = undefined;
    this.stopped = false;
    /** @type {(() => ClientMessage) | null} */
    this.hello = null;
    const wake = () => this.wake();
    window.addEventListener("online", wake);
    window.addEventListener("focus", wake);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") wake();
    });
    window.addEventListener("offline", () => this.onStatus("retrying", "offline"));
  }

  /** Connect with a hello built by `helloFactory()` (called again on every reconnect).
   * @param {() => ClientMessage} helloFactory */
  start(helloFactory) {
    this.hello = helloFactory;
    this.stopped = false;
    this.restart();
  }

  /** Drop the current socket (if any) and connect again now, e.g. after taking a seat. */
  restart() {
    this.attempt = 0;
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.onclose = null;
      old.close();
    }
    this.open();
  }

  open() {
    clearTimeout(this.timer);
    this.timer = undefined;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(this.code)}`);
    this.ws = ws;
    this.onStatus("connecting");
    ws.onopen = () => {
      if (this.hello) ws.send(JSON.stringify(this.hello()));
      this.attempt = 0;
      this.onStatus("open");
    };
    ws.onmessage = (event) => {
      /** @type {ServerFrame} */
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      if (!comesBack(event.code)) {
        this.onStatus("closed", event);
        return;
      }
      this.onStatus("retrying");
      if (event.code === ABNORMAL) {
        // refused before the upgrade, or cut off: ask over HTTP what the handshake said
        this.probe().then((retryAfter) => this.schedule(retryAfter));
      } else {
        this.schedule();
      }
    };
  }

  /** The room's Retry-After, asked over HTTP (a browser hides a refused handshake's).
   * @returns {Promise<number | null>} */
  async probe() {
    try {
      const response = await fetch(`/api/rooms/${encodeURIComponent(this.code)}`,
        { headers: { Accept: "application/json" } });
      return response.status === 503
        ? parseRetryAfter(response.headers.get("Retry-After")) : null;
    } catch {
      return null;  // offline, or the server is down: the backoff alone
    }
  }

  /** Try again after the backoff, and not before `retryAfter` seconds if given.
   * @param {number | null} [retryAfter] */
  schedule(retryAfter = null) {
    if (this.timer || this.ws || this.stopped) return;
    const delay = retryDelay(this.attempt, retryAfter);
    this.attempt += 1;
    this.timer = window.setTimeout(() => {
      this.timer = undefined;
      this.open();
    }, delay);
  }

  /** Reconnect now if we are waiting to retry (tab focus, network back). */
  wake() {
    if (this.stopped || !this.hello) return;
    if (!this.ws && navigator.onLine !== false) {
      this.attempt = 0;
      this.open();
    }
  }

  isOpen() {
    return Boolean(this.ws && this.ws.readyState === WebSocket.OPEN);
  }

  /** @param {ClientMessage} message
   * @returns {boolean} whether it went (not while connecting) */
  send(message) {
    if (!this.ws || !this.isOpen()) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
