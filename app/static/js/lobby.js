// @ts-check
// The lobby panel: the table's rules (the host edits them: preset, then every option
// with a one-line explanation; the server's answer to a bad combination names the
// option, and it is shown next to it), Start, and Leave for a seated guest.

import { currentLanguage, has, t, tn } from "./i18n.js";
import { byId, el, heldForInput, keptOpen } from "./dom.js";
import { botLabel } from "./table.js";
import { BOOL_SETTINGS, BOT_PACES, BotPace, LIMITS, Phase, TURN_SECONDS } from "./protocol.js";

/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./protocol.js").RoomInfo} RoomInfo */
/** @typedef {import("./uistate.js").UiState} UiState */
/** @typedef {import("./rulesmeta.js").RulesMeta} RulesMeta */
/** @typedef {import("./rulesmeta.js").OptionSpec} OptionSpec */

/** A value as a player reads it: "left of the dealer", "on", "4".
 * @param {string} option
 * @param {unknown} value */
export function valueLabel(option, value) {
  if (value === true) return t("value.on");
  if (value === false) return t("value.off");
  if (value === null || value === undefined) return t("value.auto");
  const key = `value.${option}.${value}`;
  if (has(key)) return t(key);
  if (option === "match" && String(value).startsWith("deals:")) {
    const n = Number(String(value).slice(6));
    return tn("value.match.deals", n, { n });
  }
  return String(value);
}

/** @param {string} option */
export function optionName(option) {
  return has(`opt.${option}.name`) ? t(`opt.${option}.name`) : option;
}

/** The host's rules refused, as one sentence in the page's language: in English with the
 *  server's precise words, in another language naming the option (a field of the error)
 *  and never the server's English.
 * @param {{ option: string, message: string }} error */
export function rulesErrorText(error) {
  if (currentLanguage() === "en") return t("lobby.rules_error", { message: error.message });
  return error.option ? t("lobby.rules_error_at", { option: optionName(error.option) })
    : t("errcode.bad_rules");
}

/** An option's explanation with its figures ({hand_size}, {max_bid}, {kitty}...) filled
 *  from `resolved`: a rule set as the engine resolves it (GET /api/rules, or the room's
 *  rules_resolved), so that no text restates a number the engine works out.
 * @param {string} option
 * @param {Record<string, unknown> | null} resolved */
export function optionHelp(option, resolved) {
  return has(`opt.${option}.help`) ? t(`opt.${option}.help`, resolved || {}) : "";
}

/** The engine's figures for a preset at a table size (GET /api/rules `resolved`).
 * @param {RulesMeta | null} meta
 * @param {string} preset
 * @param {number} [players] */
export function presetFigures(meta, preset, players = 4) {
  const byPlayers = (meta && meta.resolved && meta.resolved[preset]) || {};
  return byPlayers[String(players)] || byPlayers["4"] || {};
}

/** A preset in one or two sentences, its figures for `players` from the engine.
 * @param {RulesMeta | null} meta
 * @param {string} preset
 * @param {number} [players] */
export function presetAbout(meta, preset, players = 4) {
  return t(`preset.about.${preset}`, presetFigures(meta, preset, players));
}

/**
 * @param {string} option
 * @param {OptionSpec} spec
 * @param {unknown} value */
function choiceControl(option, spec, value) {
  const select = el("select");
  for (const v of spec.values || []) {
    const o = el("option", "", valueLabel(option, v));
    o.value = String(v);
    select.append(o);
  }
  select.value = String(value);
  return select;
}

/**
 * @param {{ min?: number, max?: number }} spec
 * @param {unknown} value
 * @param {string} [placeholder] */
function intControl(spec, value, placeholder) {
  const input = el("input");
  input.type = "number";
  input.inputMode = "numeric";
  if (spec.min !== undefined) input.min = String(spec.min);
  if (spec.max !== undefined) input.max = String(spec.max);
  // (its default too: what the person types differs from it until sent, dom.js heldForInput)
  input.defaultValue = value === null || value === undefined ? "" : String(value);
  if (placeholder) input.placeholder = placeholder;
  return input;
}

/** @param {unknown} value */
function matchControl(value) {
  const select = el("select");
  const deals = String(value).startsWith("deals:") ? String(value).slice(6) : null;
  for (const v of ["target", "single_deal", "deals:2", "deals:4", "deals:8", "deals:12"]) {
    const o = el("option", "", valueLabel("match", v));
    o.value = v;
    select.append(o);
  }
  if (deals && ![...select.options].some((o) => o.value === String(value))) {
    const o = el("option", "", valueLabel("match", value));
    o.value = String(value);
    select.append(o);
  }
  select.value = String(value);
  return select;
}

/**
 * @param {string} option
 * @param {OptionSpec} spec
 * @param {RoomInfo} room
 * @param {{ option: string, message: string } | null} error */
function optionRow(option, spec, room, error) {
  const row = el("div", "option");
  row.dataset.option = option;
  const label = el("label");
  const name = el("span", "", optionName(option));
  const resolved = room.rules_resolved[option];
  const overridden = option in room.rules;
  let control;
  if (spec.type === "bool") {
    control = el("input");
    control.type = "checkbox";
    control.checked = Boolean(resolved);
    label.append(control, name);
  } else {
    if (spec.type === "choice") control = choiceControl(option, spec, resolved);
    else if (spec.type === "match") control = matchControl(resolved);
    else if (spec.type === "int_or_derived") {
      control = intControl({ min: 1, max: 20 }, overridden ? room.rules[option] : null,
        t("value.auto_n", { n: resolved }));
    } else control = intControl(spec, resolved);
    label.append(name, control);
  }
  control.dataset.change = "rule";
  control.dataset.option = option;
  control.dataset.type = spec.type;
  control.dataset.key = `rule:${option}`;
  const help = el("p", "", optionHelp(option, room.rules_resolved));
  help.id = `help-${option}`;
  control.setAttribute("aria-describedby", help.id);
  row.append(label, help);
  if (error && error.option === option) {
    // the server's precise words are English: another language says it in its own
    const p = el("p", "error", currentLanguage() === "en" ? error.message : t("lobby.option_refused"));
    p.id = `error-${option}`;
    control.setAttribute("aria-describedby", `${p.id} ${help.id}`);
    control.setAttribute("aria-invalid", "true");
    row.append(p);
  }
  return row;
}

/** The table's number of players (undefined while unknown).
 * @param {RoomInfo} room */
function playersOf(room) {
  const players = room.rules_resolved["players"];
  return typeof players === "number" ? players : undefined;
}

/**
 * @param {RoomInfo} room
 * @param {RulesMeta} meta
 * @param {{ option: string, message: string } | null} error */
function hostForm(room, meta, error) {
  const form = el("div", "rules-form");
  const presetRow = el("div", "option");
  const label = el("label");
  const select = el("select");
  select.dataset.change = "preset";
  select.dataset.key = "preset";
  for (const p of meta.presets) {
    const o = el("option", "", t(`preset.label.${p}`));
    o.value = p;
    select.append(o);
  }
  const preset = room.rules["preset"];
  select.value = typeof preset === "string" && preset ? preset : meta.default;
  label.append(el("span", "", t("lobby.preset")), select);
  presetRow.append(label, el("p", "", presetAbout(meta, select.value, playersOf(room))));
  form.append(presetRow);
  for (const [option, spec] of Object.entries(meta.options)) {
    form.append(optionRow(option, spec, room, error));
  }
  return form;
}

/** A choice among the protocol's values, each named by `label`.
 * @template {string | number} V
 * @param {readonly V[]} values
 * @param {V} current
 * @param {(value: V) => string} label */
function settingSelect(values, current, label) {
  const select = el("select");
  for (const v of values) {
    const o = el("option", "", label(v));
    o.value = String(v);
    select.append(o);
  }
  select.value = String(current);
  return select;
}

/** "Off", "30 s": the turn timer as players read it.
 * @param {number} seconds */
export function turnTimeLabel(seconds) {
  return seconds ? t("clock.seconds", { n: seconds }) : t("settings.turn_off");
}

/** The host's room settings (any time): turn time, bot pace, the grace for a dropped
 *  player, the pause between deals, and a checkbox for each on/off setting.
 * @param {RoomInfo} room */
export function settingsForm(room) {
  const box = el("fieldset", "timing");
  box.append(el("legend", "", t("lobby.timing")));
  const settings = room.settings;
  /** @type {[string, string, string, HTMLSelectElement | HTMLInputElement][]} */
  const rows = [
    ["turn_seconds", "choice", "settings.turn_seconds",
      settingSelect(/** @type {readonly number[]} */ (TURN_SECONDS), settings.turn_seconds ?? 0, turnTimeLabel)],
    ["bot_pace", "choice", "settings.bot_pace",
      settingSelect(/** @type {readonly string[]} */ (BOT_PACES), settings.bot_pace ?? BotPace.NORMAL, (v) => t(`pace.${v}`))],
    ["grace_seconds", "int", "lobby.grace",
      intControl({ min: 0, max: LIMITS.GRACE_SECONDS_MAX }, settings.grace_seconds)],
    ["next_deal_pause", "int", "lobby.pause",
      intControl({ min: 0, max: LIMITS.NEXT_DEAL_PAUSE_MAX }, settings.next_deal_pause)],
  ];
  for (const [setting, kind, key, control] of rows) {
    const label = el("label", "setting");
    control.dataset.change = "settings";
    control.dataset.setting = setting;
    control.dataset.kind = kind;
    control.dataset.key = `settings:${setting}`;
    label.append(el("span", "", t(key)), control);
    box.append(label);
  }
  // A checkbox for each on/off setting, from the generated list: they are about the
  // people at the table and watching, whom a practice table does not have.
  for (const setting of room.practice ? [] : BOOL_SETTINGS) {
    const label = el("label", "setting inline-check");
    const check = el("input");
    check.type = "checkbox";
    check.checked = settings[setting] !== false;
    check.dataset.change = "settings";
    check.dataset.setting = setting;
    check.dataset.kind = "bool";
    check.dataset.key = `settings:${setting}`;
    label.append(check, el("span", "", t(`settings.${setting}`)));
    box.append(label);
  }
  return box;
}

/** A short summary of the rules for guests: preset, shape and every changed option.
 * @param {RoomInfo} room */
export function rulesSummary(room) {
  const r = room.rules_resolved;
  const list = el("ul", "rules-summary");
  /** @param {string} text */
  const add = (text) => list.append(el("li", "", text));
  add(t(`preset.label.${r["preset"] || room.rules["preset"] || "standard"}`));
  add(t("lobby.shape", { players: r.players, hand: r.hand_size, kitty: r.kitty, min: r.min_bid, max: r.max_bid }));
  // "Turn time: 30 s", "Temps par coup : 30 s": the colon as the language writes it
  /** @param {string} label
   * @param {string} value */
  const line = (label, value) => add(t("line.label_value", { label, value }));
  for (const [option, value] of Object.entries(room.rules)) {
    if (option === "preset") continue;
    line(optionName(option), valueLabel(option, value));
  }
  const settings = room.settings || {};
  line(t("settings.turn_seconds"), turnTimeLabel(settings.turn_seconds || 0));
  if (settings.bot_pace) line(t("settings.bot_pace"), t(`pace.${settings.bot_pace}`));
  return list;
}

/**
 * @param {View} view
 * @param {RulesMeta | null} meta
 * @param {UiState} ui
 * @param {() => void} redraw draws the page again (once a field typed in lets go) */
export function renderLobby(view, meta, ui, redraw) {
  const box = byId("lobby");
  box.hidden = view.phase !== Phase.LOBBY;
  if (box.hidden) {
    ui.lobbySignature = null;
    return;
  }
  const room = view.room;
  const seated = room.your_seat !== null && room.your_seat !== undefined;
  const signature = JSON.stringify([room.rules, room.settings, room.you_are_host, seated, ui.rulesError,
    document.documentElement.lang, Boolean(meta)]);
  if (signature === ui.lobbySignature || heldForInput(box, redraw)) return;
  ui.lobbySignature = signature;
  /** @type {HTMLElement[]} */
  const parts = [el("h2", "", t("lobby.heading"))];
  if (room.you_are_host) {
    const start = el("button", "primary", t("lobby.start"));
    start.type = "button";
    start.dataset.action = "start";
    start.dataset.key = "start";
    const actions = el("div", "actions");
    actions.append(start);
    parts.push(el("p", "hint", t("lobby.start_hint")), actions);
  } else {
    parts.push(el("p", "hint", t("lobby.wait_host")));
  }
  if (ui.rulesError) {
    parts.push(el("p", "error", rulesErrorText(ui.rulesError)));
  }
  parts.push(rulesSummary(room), botLevelsAbout(room.settings.bot_levels, ui));
  if (room.you_are_host && meta) {
    const details = el("details", "rules-details");
    const summary = el("summary", "", t("lobby.change_rules"));
    // (open too while the server refuses a rule: its reason is in there)
    keptOpen(details, summary, ui.rulesOpen || Boolean(ui.rulesError),
      (open) => { ui.rulesOpen = open; }, "rules-summary");
    details.append(summary, hostForm(room, meta, ui.rulesError), settingsForm(room));
    parts.push(details);
  }
  if (seated && !room.you_are_host && !room.practice) {
    // A guest may leave the seat in the lobby.
    const leave = el("button", "", t("lobby.leave"));
    leave.type = "button";
    leave.dataset.action = "leave";
    leave.dataset.key = "leave";
    parts.push(leave);
  }
  box.replaceChildren(...parts);
}

/** Each bot level's name and what it plays like (the levels the interface can describe).
 * @param {string[]} levels
 * @returns {[string, string][]} */
export function botLevelLines(levels) {
  return levels.filter((level) => has(`bot.about.${level}`))
    .map((level) => [botLabel(level), t(`bot.about.${level}`)]);
}

/** What each bot level plays like, so that a host picks knowing what to expect (open
 *  through a redraw if the person opened it).
 * @param {string[]} levels
 * @param {UiState} ui */
function botLevelsAbout(levels, ui) {
  const box = el("details", "bot-levels");
  const summary = el("summary", "", t("lobby.bot_levels"));
  keptOpen(box, summary, ui.botLevelsOpen, (open) => { ui.botLevelsOpen = open; }, "bot-levels");
  box.append(summary);
  const list = el("dl");
  for (const [name, about] of botLevelLines(levels)) list.append(el("dt", "", name), el("dd", "", about));
  box.append(list);
  return box;
}

/** @type {string | null} */
let settingsSignature = null;

/** The host's room settings during the game (in the lobby they sit under the rules).
 * @param {View} view
 * @param {() => void} redraw draws the page again (once a field typed in lets go) */
export function renderSettingsBox(view, redraw) {
  const box = byId("settings-box");
  box.hidden = !view.room.you_are_host || view.phase === Phase.LOBBY;
  if (box.hidden) {
    settingsSignature = null;
    return;
  }
  const signature = JSON.stringify([view.room.settings, document.documentElement.lang]);
  const body = byId("settings-body");
  if (signature === settingsSignature || heldForInput(body, redraw)) return;
  settingsSignature = signature;
  body.replaceChildren(settingsForm(view.room));
}
