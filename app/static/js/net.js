// The connection to the room: HTTP calls, the WebSocket and reconnecting.
//
// The WebSocket reconnects by itself with exponential backoff (capped, with jitter so a
// restarted server is not hit by every table at once), and at once when the tab comes
// back into view or the network returns.  The first message always authenticates; the
// token lives in localStorage per room code, never in a URL.

const TOKEN_PREFIX = "amerikaner.token.";

export function savedToken(code) {
  return localStorage.getItem(TOKEN_PREFIX + code);
}

export function saveToken(code, token) {
  localStorage.setItem(TOKEN_PREFIX + code, token);
}

export function forgetToken(code) {
  localStorage.removeItem(TOKEN_PREFIX + code);
}

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Call the JSON API; throws ApiError with the server's code and message. */
export async function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
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

// Close codes the server uses for "do not come back with this hello" (4000-4999).
const FATAL_CLOSE_MIN = 4000;

export class Connection {
  /**
   * @param {string} code room code
   * @param {object} handlers onMessage(message), onStatus("connecting"|"open"|"retrying"|"closed", detail)
   */
  constructor(code, { onMessage, onStatus }) {
    this.code = code;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.attempt = 0;
    this.timer = null;
    this.stopped = false;
    this.hello = null;
    const wake = () => this.wake();
    window.addEventListener("online", wake);
    window.addEventListener("focus", wake);
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") wake();
    });
    window.addEventListener("offline", () => this.onStatus("retrying", "offline"));
  }

  /** Connect with a hello built by `helloFactory()` (called again on every reconnect). */
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
    this.timer = null;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/${encodeURIComponent(this.code)}`);
    this.ws = ws;
    this.onStatus("connecting");
    ws.onopen = () => {
      ws.send(JSON.stringify(this.hello()));
      this.attempt = 0;
      this.onStatus("open");
    };
    ws.onmessage = (event) => {
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
      if (event.code >= FATAL_CLOSE_MIN && event.code < 5000) {
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
    this.timer = setTimeout(() => {
      this.timer = null;
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

  send(message) {
    if (!this.isOpen()) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
