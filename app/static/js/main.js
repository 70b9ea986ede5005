// The landing page: create a room, join one by code, practise against bots.

import { api, saveToken } from "./net.js";
import { setUpPage } from "./page.js";
import { serverMessage, t } from "./i18n.js";
import { presetAbout } from "./lobby.js";

const NAME_KEY = "amerikaner.name";
// GET /api/rules: the presets' figures for the hint under the preset picker.
let rulesMeta = null;

function nameInput() {
  return document.getElementById("name");
}

function showError(message) {
  document.getElementById("home-error").textContent = message;
}

function readName() {
  const input = nameInput();
  const name = input.value.trim();
  if (!name) {
    showError(t("error.name_required"));
    input.focus();
    return null;
  }
  localStorage.setItem(NAME_KEY, name);
  return name;
}

function chosenRules() {
  const rules = { preset: document.getElementById("preset").value };
  if (document.getElementById("single-round").checked) rules.match = "single_deal";
  return rules;
}

async function createRoom(practice) {
  const name = readName();
  if (!name) return;
  const body = { name, rules: chosenRules() };
  if (practice) body.practice = true;
  const room = await api("POST", "/api/rooms", body);
  saveToken(room.room, room.token);
  location.assign(room.url || `/r/${room.room}`);
}

async function joinRoom() {
  const codeInput = document.getElementById("code");
  const code = codeInput.value.trim().toLowerCase();
  if (!code) {
    showError(t("error.code_required"));
    codeInput.focus();
    return;
  }
  const name = readName();
  if (!name) return;
  const joined = await api("POST", `/api/rooms/${encodeURIComponent(code)}/join`, { name });
  saveToken(code, joined.token);
  location.assign(`/r/${encodeURIComponent(code)}`);
}

const handlers = {
  create: () => createRoom(false),
  practice: () => createRoom(true),
  join: joinRoom,
};

function presetHint() {
  const select = document.getElementById("preset");
  for (const option of select.options) option.textContent = t(`preset.label.${option.value}`);
  document.getElementById("preset-hint").textContent =
    rulesMeta ? presetAbout(rulesMeta, select.value) : "";
}

function init() {
  // Listeners first and synchronously: a click right after the page loads must work.
  const input = nameInput();
  if (!input.value) input.value = localStorage.getItem(NAME_KEY) || "";
  document.getElementById("preset").addEventListener("change", presetHint);
  document.addEventListener("languagechange", presetHint);
  // One listener for every button of the page, reading data-action.
  document.getElementById("content").addEventListener("click", async (event) => {
    const button = event.target.closest("button[data-action]");
    if (!button || !(button.dataset.action in handlers)) return;
    showError("");
    button.disabled = true;
    try {
      await handlers[button.dataset.action]();
    } catch (error) {
      showError(serverMessage(error.code, error.message));
    } finally {
      button.disabled = false;
    }
  });
  document.getElementById("code").addEventListener("keydown", (event) => {
    if (event.key === "Enter") document.querySelector("[data-action='join']").click();
  });
  // Without the figures (a failed request) the hint stays empty; the page still works.
  const figures = api("GET", "/api/rules").catch(() => null);
  setUpPage().then(presetHint).then(() => figures).then((meta) => {
    rulesMeta = meta;
    presetHint();
  });
}

init();
