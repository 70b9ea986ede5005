// @ts-check
// The room page's controller: the one WebSocket connection (net.js), the latest state
// frame, the page's own state (uistate.js), and the page's events turned into messages.
//
// - Frames from the server go through one `switch (message.type)` (`onMessage`): a
//   `state` replaces the view and its events and redraws the page (`render`, which hands
//   the view and `ui` to each panel's renderer: table.js, controls.js, hand.js, lobby.js,
//   scoresheet.js, chat.js...); a `hint` and a `review` are kept with the state or deal
//   they answer; an `error` is shown (a `bad_rules` one beside the lobby's rules).
// - Controls carry `data-action` (one click listener and its table: roomclicks.js) or
//   `data-change` (one change listener: the host's rules, settings and bot levels, whose
//   messages lobbychanges.js makes, the grand checkbox); each becomes one client message
//   (`send`), a game action at most once per `game` (`act`).
// - The server is authoritative: the client decides nothing and only offers what the
//   view's `legal` allows.  Local state is what a view does not hold: selections in
//   progress (the discard, the first lead's card, grand; cleared when the deal, phase or
//   turn changes), the reviews asked for and received, what the person dismissed.
// - Around it: joining a seat over HTTP (the token kept in localStorage), the
//   connection's status line and close codes, the rules' metadata (`/api/rules`) for the
//   lobby, and a practice table started as soon as its person is in.

import { renderChat, setUpChat } from "./chat.js";
import { countdown, startClocks, tickClocks } from "./clock.js";
import { renderControls, turnClock, turnText } from "./controls.js";
import { renderDealLog } from "./deallog.js";
import { renderJoinPanel } from "./joinpanel.js";
import { captureFocus, restoreFocus } from "./focus.js";
import { renderHand } from "./hand.js";
import { serverMessage, t } from "./i18n.js";
import { renderLobby, renderSettingsBox } from "./lobby.js";
import { lobbyChangeMessage, sameRules } from "./lobbychanges.js";
import { api, Connection, errorMessage, forgetToken, saveToken, savedToken } from "./net.js";
import { withPlayer } from "./player.js";
import { announce, clearMessage, flash, showError } from "./notices.js";
import { setUpPage } from "./page.js";
import { renderResult } from "./result.js";
import { askRatingChanges } from "./clubresult.js";
import { earlierReviewButtons, ofThisMatch, renderReviews, shownReview } from "./reviewlist.js";
import { setUpReplayDialog } from "./roomreplay.js";
import { listenToClicks } from "./roomclicks.js";
import { setUpRoving } from "./roving.js";
import { renderScoreSheet } from "./scoresheet.js";
import { renderCenterPanel, renderContract, renderSeats } from "./table.js";
import { renderTrick } from "./trick.js";
import { renderStandIn } from "./standin.js";
import { clubFrom, showRoomGone } from "./roomgone.js";
import { setUpVibrationToggle, signalTurn } from "./turn.js";
import { eventSounds, setUpSoundToggle, sound } from "./sound.js";
import { byId } from "./dom.js";
import { CloseCode, ErrorCode, Phase } from "./protocol.js";
import { newUiState, reviewKey } from "./uistate.js";

/** @typedef {import("./protocol.js").ReviewFrame} ReviewFrame */
/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./protocol.js").ServerFrame} ServerFrame */
/** @typedef {import("./protocol.js").ErrorFrame} ErrorFrame */
/** @typedef {import("./protocol.js").HintFrame} HintFrame */
/** @typedef {import("./protocol.js").StateEvent} StateEvent */
/** @typedef {import("./protocol.js").ClientMessage} ClientMessage */
/** @typedef {import("./payloads.js").Action} Action */
/** @typedef {import("./rulesmeta.js").RulesMeta} RulesMeta */

const NAME_KEY = "amerikaner.name";
const roomEl = byId("room");
const code = (roomEl.dataset.room ?? "").toLowerCase();

// The client's own state; the server's view is kept as it came.
const ui = newUiState();
/** @type {View | null} */
let view = null;
let game = 0;
/** @type {StateEvent[]} */
let events = [];
/** @type {HintFrame | null} */
let hint = null;
/** @type {RulesMeta | null} */
let meta = null;
/** @type {number | null} */
let sentAt = null;
let practiceStarted = false;

const conn = new Connection(code, { onMessage, onStatus });

// -- messages from the server ---------------------------------------------------------

/** @param {ServerFrame} message */
function onMessage(message) {
  switch (message.type) {
    case "welcome":
      // The seat and numbers also arrive in the state that follows.  A new connection
      // starts clean: an error from before (a missing name) is no longer news.
      if (message.seat !== null && message.seat !== undefined) clearMessage("room-error");
      // (a rule set sent on the connection before may or may not have been taken: the
      // state that follows says which)
      ui.rulesSent = null;
      break;
    case "state":
      game = message.game;
      view = message.view;
      events = message.events || [];
      if (ui.rulesSent && (view.phase !== Phase.LOBBY || sameRules(ui.rulesSent, view.room.rules))) {
        ui.rulesSent = null;
      }
      render();
      announce(events, view);
      for (const name of eventSounds(events)) sound(name);
      events = [];
      startPractice();
      break;
    case "hint":
      hint = message;
      render();
      break;
    case "review": {
      ui.reviews.set(reviewKey(message.match, message.deal), message);
      // Asked before the next deal started, it comes during it: kept, and said so.
      if (view && !ofThisMatch(view, message.match, message.deal)) {
        flash("room-notice", t("review.ready_earlier", { n: message.deal + 1, m: message.match }));
      } else if (view && reviewKey(message.match, message.deal) !== shownReview(view)) {
        flash("room-notice", t("review.ready_late", { n: message.deal + 1 }));
      }
      render();
      break;
    }
    case "error":
      onError(message);
      break;
    case "pong":
      break;
    default:
      break;
  }
}

/** @param {ErrorFrame} message */
function onError(message) {
  sentAt = null;
  // (a refused rule set is not the host's: the next change starts from the one shown)
  ui.rulesSent = null;
  if (message.code === ErrorCode.BAD_RULES) {
    ui.rulesError = { option: message.option || "", message: message.message };
    ui.lobbySignature = null;
    render();
    return;
  }
  showError(serverMessage(message.code, message.message, message.reason, message.params));
}

/**
 * @param {import("./net.js").Status} status
 * @param {CloseEvent | "offline"} [detail] */
function onStatus(status, detail) {
  const el = byId("conn-status");
  if (status === "open") el.textContent = "";
  else if (status === "connecting") el.textContent = view ? t("conn.reconnecting") : t("conn.connecting");
  else if (status === "retrying") el.textContent = detail === "offline" ? t("conn.offline") : t("conn.lost");
  else if (status === "closed" && detail instanceof CloseEvent) onClosed(detail);
}

/** @param {CloseEvent} event */
function onClosed(event) {
  const el = byId("conn-status");
  if (event.code === CloseCode.BAD_TOKEN) {
    // The token is unknown (the seat was given back): watch, and offer to join.
    forgetToken(code);
    el.textContent = "";
    connect();
    return;
  }
  if (event.code === CloseCode.NO_ROOM) {
    // The room is no more: the page says so in place of the table (a redraw, as after a
    // change of language, has no view left to draw again).
    view = null;
    showRoomGone(clubFrom(location.search));
    return;
  }
  if (event.code === CloseCode.PRIVATE) el.textContent = t("conn.private");
  else el.textContent = t("conn.closed");
  renderJoinPanel(view);
}

// -- sending ----------------------------------------------------------------------------

/** @param {ClientMessage} message */
function send(message) {
  if (!conn.send(message)) showError(t("conn.not_connected"));
}

/** @param {Action} action */
function act(action) {
  // One action per game state: a double click must not play a second card into the next
  // trick.  Only the match moves `game`, so chat or people coming and going never make
  // the action stale.
  if (sentAt === game) return;
  sentAt = game;
  send({ type: "action", game, action });
}

function connect() {
  // Read the token at every (re)connect: joining or leaving changes it.
  conn.start(() => {
    const token = savedToken(code);
    return token ? { type: "hello", token } : { type: "hello", spectate: true };
  });
}

/** @param {number} [seat] */
async function join(seat) {
  const input = byId("join-name", HTMLInputElement);
  const name = input.value.trim();
  if (!name) {
    showError(t("error.name_required"));
    input.focus();
    return;
  }
  localStorage.setItem(NAME_KEY, name);
  const body = seat === undefined ? { name } : { name, seat };
  try {
    // The seat is the person's player's (made now if this browser has none: player.js).
    const joined = await withPlayer(name,
      (key) => api("POST", `/api/rooms/${encodeURIComponent(code)}/join`, body, key));
    saveToken(code, joined.token);
    connect();
  } catch (error) {
    showError(errorMessage(error));
  }
}

// The buttons (roomclicks.js): what they act on.
listenToClicks({ code, ui, view: () => view, act, send, join, connect, render });

// Form controls: the host's rules, settings and bot levels (lobbychanges.js), the grand
// checkbox.
document.addEventListener("change", (event) => {
  const control = event.target;
  if (!(control instanceof HTMLInputElement || control instanceof HTMLSelectElement)) return;
  const kind = control.dataset.change;
  if (!kind || !view) return;
  if (kind === "grand") {
    ui.grand = control instanceof HTMLInputElement && control.checked;
    render();
    return;
  }
  // A new try at the rules: the server's last refusal is no longer news.
  if (kind === "preset" || kind === "rule") ui.rulesError = null;
  const checked = control instanceof HTMLInputElement && control.checked;
  // Sent: no longer an edit that a redraw must wait for (dom.js heldForInput).
  if (control instanceof HTMLInputElement && control.type !== "checkbox") control.defaultValue = control.value;
  const message = lobbyChangeMessage({ kind, value: control.value, checked, data: control.dataset },
    ui.rulesSent ?? view.room.rules, meta);
  if (!message) return;
  if (message.type === "rules") ui.rulesSent = message.rules;
  send(message);
});

// A practice table has nobody to wait for: its person starts it at once.
function startPractice() {
  if (!view || practiceStarted || !view.room.practice || view.phase !== Phase.LOBBY || !view.room.you_are_host) return;
  practiceStarted = true;
  send({ type: "start" });
}

// -- rendering ------------------------------------------------------------------------

/** @param {View} view */
function resetSelections(view) {
  const stage = `${view.deal_number}:${view.phase}:${view.turn === view.you}`;
  if (stage !== ui.stage) {
    ui.stage = stage;
    ui.discard.clear();
    ui.leadCard = null;
    ui.grand = false;
    ui.askingAmerikaner = false;
  }
  if (view.phase !== Phase.LOBBY) ui.rulesError = null;
}

function render() {
  if (!view) return;
  // The table appears with the first state: an unknown room never shows an empty one.
  byId("play-area").hidden = false;
  byId("side").hidden = false;
  const focus = captureFocus();
  // A practice hint answers one game state, for this seat only.
  const hinted = hint && hint.game === game && hint.seat === view.you ? hint : null;
  ui.hint = hinted ? hinted.action : null;
  ui.hintReason = hinted ? { key: hinted.key, params: hinted.params } : null;
  resetSelections(view);
  document.body.classList.toggle("is-practice", Boolean(view.room.practice));
  // The phase lets the layout make room for what each phase needs (app.css).
  roomEl.dataset.phase = view.phase;
  renderSeats(view);
  renderContract(view);
  renderTrick(view, events, render);
  renderStandIn(view.room.stood_in, ui.stoodInDismissed);
  renderCenterPanel(view);
  renderControls(view, ui);
  renderHand(view, ui);
  askRatingChanges(view, render);
  renderResult(view, ui);
  renderLobby(view, meta, ui, render);
  renderDealLog(view);
  renderSettingsBox(view, render);
  const shown = view;  // (the closure below runs now, with this view)
  renderScoreSheet(view, (match) => earlierReviewButtons(shown, ui, match));
  renderReviews(view, ui);
  renderChat(view);
  renderJoinPanel(view);
  renderStatus(view);
  // Nobody can join a practice table: no link to share.
  for (const id of ["copy-link", "share-button"]) {
    const b = byId(id);
    if (b && view.room.practice) b.hidden = true;
  }
  restoreFocus(focus);
  tickClocks();
  signalTurn(view);
}

/** The status line: whose turn it is (or whom the table waits for) and, while a clock
 *  runs for that seat, its seconds left; only redrawn when it changes, so that a screen
 *  reader hears a new turn once (the countdown itself is not a live region).
 * @param {View} view */
function renderStatus(view) {
  const status = byId("turn-status");
  const text = turnText(view);
  const until = turnClock(view);
  const signature = `${text}|${until ?? ""}`;
  if (status.dataset.signature === signature) return;
  status.dataset.signature = signature;
  if (until === null || !text) {
    status.textContent = text;
    return;
  }
  status.replaceChildren(text.replace(/[.:]$/, ""), " (", countdown(until), ")");
}

async function loadMeta() {
  try {
    meta = await api("GET", "/api/rules");
  } catch {
    meta = null;
  }
  ui.lobbySignature = null;
  render();
}

async function init() {
  const joinName = byId("join-name", HTMLInputElement);
  if (!joinName.value) joinName.value = localStorage.getItem(NAME_KEY) || "";
  await setUpPage();
  if ("share" in navigator) byId("share-button").hidden = false;
  byId("join-name").addEventListener("input", () => clearMessage("room-error"));
  document.addEventListener("languagechange", () => {
    ui.lobbySignature = null;
    render();
  });
  setUpRoving();
  setUpSoundToggle();
  setUpVibrationToggle();
  startClocks();
  setUpChat(send);
  setUpReplayDialog();
  connect();
  loadMeta();
}

init();
