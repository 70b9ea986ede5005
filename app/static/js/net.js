// @ts-check
// The connection to the room: HTTP calls, the WebSocket and reconnecting.
//
// The WebSocket reconnects by itself with exponential backoff (capped, with jitter so a
// restarted server is not hit by every table at once), and at once when the tab comes
// back into view or the network returns.  The first message always authenticates; the
// token lives in localStorage per room code, never in a URL.

import { serverMessage } from "./i18n.js";
import { FINAL_CLOSE_CODES } from "./protocol.js";

/** @typedef {import("./protocol.js").ServerFrame} ServerFrame */
/** @typedef {import("./protocol.js").ClientMessage} ClientMessage */
/** @typedef {"connecting" | "open" | "retrying" | "closed"} Status */

const TOKEN_PREFIX = "amerikaner.token.";

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
   * @param {string} message */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A failed call's message for the player: the server's, translated by its code.
 * @param {unknown} error */
export function errorMessage(error) {
  if (error instanceof ApiError) return serverMessage(error.code, error.message);
  return serverMessage("network", error instanceof Error ? error.message : String(error));
}

/** Call the JSON API; throws ApiError with the server's code and message.
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
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = (data && data.error) || {};
    throw new ApiError(response.status, error.code || "http_" + response.status,
      error.message || response.statusText);
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
      this.schedule();
    };
  }

  schedule() {
    if (this.timer) return;
    const base = Math.min(15000, 500 * 2 ** this.attempt);
    this.attempt += 1;
    const delay = base / 2 + Math.random() * (base / 2);
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
