// @ts-check
// The landing page: create a room, join one by code, practise against bots (their level
// and speed chosen here).

import { api, errorMessage, saveToken } from "./net.js";
import { setUpPage } from "./page.js";
import { has, t } from "./i18n.js";
import { presetAbout } from "./lobby.js";
import { byId } from "./dom.js";
import { withPlayer } from "./player.js";
import { showYou, youActions } from "./you.js";

/** @typedef {import("./rulesmeta.js").RulesMeta} RulesMeta */
/** @typedef {import("./protocol.js").CreateRoomBody} CreateRoomBody */
/** @typedef {import("./protocol.js").BotPaceValue} BotPaceValue */

/** @typedef {import("./protocol.js").ReviewFrame} ReviewFrame */

const NAME_KEY = "amerikaner.name";
const PRACTICE_KEY = "amerikaner.practice";
// GET /api/rules: the presets' figures for the hint under the preset picker, and the
// bot levels for practice.
/** @type {RulesMeta | null} */
let rulesMeta = null;

function nameInput() {
  return byId("name", HTMLInputElement);
}

/** Errors show next to what they are about: the name and creating under "You", joining
 *  by code under the Join button.
 * @param {string} message
 * @param {string} [where] */
function showError(message, where = "home-error") {
  byId(where).textContent = message;
}

function clearErrors() {
  showError("");
  showError("", "join-error");
}

/** @param {string} where */
function readName(where) {
  const input = nameInput();
  const name = input.value.trim();
  if (!name) {
    showError(t("error.name_required"), where);
    input.focus();
    return null;
  }
  localStorage.setItem(NAME_KEY, name);
  return name;
}

function chosenRules() {
  /** @type {Record<string, string>} */
  const rules = { preset: byId("preset", HTMLSelectElement).value };
  if (byId("single-round", HTMLInputElement).checked) rules.match = "single_deal";
  return rules;
}

/** @param {boolean} practice */
async function createRoom(practice) {
  const name = readName("home-error");
  if (!name) return;
  /** @type {CreateRoomBody} */
  const body = { name, rules: chosenRules() };
  if (practice) {
    body.practice = true;
    body.bot_level = byId("bot-level", HTMLSelectElement).value;
    body.bot_pace = /** @type {BotPaceValue} */ (byId("bot-pace", HTMLSelectElement).value);
    localStorage.setItem(PRACTICE_KEY, JSON.stringify({ level: body.bot_level, pace: body.bot_pace }));
  }
  // The first time the person names themself, their player is made (player.js).
  const room = await withPlayer(name, (key) => api("POST", "/api/rooms", body, key));
  saveToken(room.room, room.token);
  location.assign(room.url || `/r/${room.room}`);
}

async function joinRoom() {
  const codeInput = byId("code", HTMLInputElement);
  const code = codeInput.value.trim().toLowerCase();
  if (!code) {
    showError(t("error.code_required"), "join-error");
    codeInput.focus();
    return;
  }
  const name = readName("join-error");
  if (!name) return;
  const joined = await withPlayer(name,
    (key) => api("POST", `/api/rooms/${encodeURIComponent(code)}/join`, { name }, key));
  saveToken(code, joined.token);
  location.assign(`/r/${encodeURIComponent(code)}`);
}

/** @type {Record<string, () => Promise<void>>} */
const handlers = {
  create: () => createRoom(false),
  practice: () => createRoom(true),
  join: joinRoom,
  ...youActions,
};

/** The preset menu shows short names (a long label is cut off in a narrow menu); the
 *  full label and what the preset means are written under it. */
function presetHint() {
  const select = byId("preset", HTMLSelectElement);
  for (const option of select.options) {
    const short = `preset.short.${option.value}`;
    option.textContent = t(has(short) ? short : `preset.label.${option.value}`);
  }
  // Without the figures (a failed request) the hint is the preset's full name only.
  const hint = byId("preset-hint");
  const label = t(`preset.label.${select.value}`);
  hint.textContent = rulesMeta ? `${label}. ${presetAbout(rulesMeta, select.value)}` : label;
}

function botLevelLabels() {
  const select = byId("bot-level", HTMLSelectElement);
  for (const option of select.options) {
    const key = `bot.${option.value}`;
    option.textContent = has(key) ? t(key) : option.value;
  }
  // What the chosen level plays like (app/static/i18n: bot.about.*).
  const about = `bot.about.${select.value}`;
  byId("bot-level-about").textContent = has(about) ? t(about) : "";
}

/** The practice opponents: the server's bot levels, the best one first chosen.
 * @param {RulesMeta | null} meta */
function showBotLevels(meta) {
  const select = byId("bot-level", HTMLSelectElement);
  const saved = JSON.parse(localStorage.getItem(PRACTICE_KEY) || "{}");
  if (meta) {
    select.replaceChildren(...meta.bot_levels.map((level) => {
      const option = document.createElement("option");
      option.value = level;
      return option;
    }));
    select.value = meta.bot_levels.includes(saved.level) ? saved.level : meta.best_bot;
  }
  if (saved.pace) byId("bot-pace", HTMLSelectElement).value = saved.pace;
  botLevelLabels();
}

/** The page asks for a name before anything else: a keyboard starts in its box, not
 *  seven Tabs away behind the top bar (issue 39); the top bar is a Shift+Tab back, and a
 *  screen reader reads the box's label. Not on a touch screen (its keyboard would cover
 *  the page before the player chose to type), nor once the focus has moved.
 * @param {HTMLInputElement} input */
function focusName(input) {
  if (!window.matchMedia("(pointer: fine)").matches) return;
  if (document.activeElement && document.activeElement !== document.body) return;
  if (location.hash) return;  // (a link to a part of the page: the browser goes there)
  input.focus();
}

function init() {
  // Listeners first and synchronously: a click right after the page loads must work.
  const input = nameInput();
  if (!input.value) input.value = localStorage.getItem(NAME_KEY) || "";
  focusName(input);
  // An error about a missing name or code goes once there is something typed.
  input.addEventListener("input", clearErrors);
  byId("code", HTMLInputElement).addEventListener("input", () => showError("", "join-error"));
  byId("preset", HTMLSelectElement).addEventListener("change", presetHint);
  byId("bot-level", HTMLSelectElement).addEventListener("change", botLevelLabels);
  document.addEventListener("languagechange", () => {
    presetHint();
    botLevelLabels();
  });
  // One listener for every button of the page, reading data-action.
  byId("content").addEventListener("click", async (event) => {
    const target = event.target;
    const button = target instanceof Element ? target.closest("button[data-action]") : null;
    if (!(button instanceof HTMLButtonElement)) return;
    const handler = handlers[button.dataset.action ?? ""];
    if (!handler) return;
    clearErrors();
    button.disabled = true;
    try {
      await handler();
    } catch (error) {
      showError(errorMessage(error), button.dataset.action === "join" ? "join-error" : "home-error");
    } finally {
      button.disabled = false;
    }
  });
  byId("code", HTMLInputElement).addEventListener("keydown", (event) => {
    const join = document.querySelector("button[data-action='join']");
    if (event.key === "Enter" && join instanceof HTMLButtonElement) join.click();
  });
  const meta = api("GET", "/api/rules").catch(() => null);
  setUpPage().then(presetHint).then(() => meta).then((answer) => {
    rulesMeta = answer;
    presetHint();
    showBotLevels(answer);
  });
  showYou();
}

init();
