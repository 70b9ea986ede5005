// The rules page: the game explained (i18n text), then the presets and every option
// rendered from GET /api/rules, which the server builds from the engine's rule set, so
// the page cannot drift from the rules that are played.

import { has, t } from "./i18n.js";
import { optionName, valueLabel } from "./lobby.js";
import { api } from "./net.js";
import { setUpPage } from "./page.js";
import { el } from "./dom.js";

let meta = null;

function renderText() {
  const box = document.getElementById("rules-text");
  const sections = [];
  for (let i = 1; has(`rules.s${i}.title`); i++) {
    const section = el("section");
    section.append(el("h2", "", t(`rules.s${i}.title`)));
    for (const para of t(`rules.s${i}.body`).split("\n\n")) section.append(el("p", "", para));
    sections.push(section);
  }
  box.replaceChildren(...sections);
}

// The preset table's columns: the options the presets set, then the deck's shape.
function presetColumns() {
  const columns = new Set();
  for (const options of Object.values(meta.preset_options || {})) {
    for (const option of Object.keys(options)) columns.add(option);
  }
  return columns.size ? [...columns] : ["kitty", "kitty_trick", "no_callable", "first_bidder"];
}

function renderPresets() {
  const PRESET_COLUMNS = presetColumns();
  const box = document.getElementById("presets-table");
  const table = el("table", "data-table");
  const head = el("tr");
  const headers = [t("rules.col.preset"), ...PRESET_COLUMNS.map(optionName), t("rules.col.hand"), t("rules.col.bids")];
  for (const text of headers) {
    const th = el("th", "", text);
    th.scope = "col";
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  const tbody = el("tbody");
  for (const preset of meta.presets) {
    const r = meta.resolved[preset]["4"] || meta.resolved[preset][4];
    const tr = el("tr");
    const th = el("th", "");
    th.scope = "row";
    th.append(el("code", "", preset), el("br"), document.createTextNode(t(`preset.label.${preset}`)));
    tr.append(th);
    for (const option of PRESET_COLUMNS) tr.append(el("td", "", valueLabel(option, r[option])));
    tr.append(el("td", "", String(r.hand_size)), el("td", "", `${r.min_bid}–${r.max_bid}`));
    tbody.append(tr);
  }
  table.append(thead, tbody);
  box.replaceChildren(table);
}

function withLabel(option, value) {
  const label = valueLabel(option, value);
  return label === String(value) ? label : `${value} (${label})`;
}

function valuesText(option, spec) {
  if (spec.type === "choice") return spec.values.map((v) => withLabel(option, v)).join(", ");
  if (spec.type === "bool") return `true (${t("value.on")}), false (${t("value.off")})`;
  if (spec.type === "int") return t("rules.int_range", { min: spec.min, max: spec.max });
  if (spec.type === "int_or_derived") return t("rules.int_derived");
  if (spec.type === "match") return t("rules.match_values");
  return "";
}

function renderOptions() {
  const list = document.getElementById("options-list");
  const items = [];
  for (const [option, spec] of Object.entries(meta.options)) {
    const dt = el("dt");
    dt.id = `option-${option}`;
    dt.append(document.createTextNode(`${optionName(option)} `), el("code", "", option));
    const dd = el("dd");
    dd.append(el("p", "", has(`opt.${option}.help`) ? t(`opt.${option}.help`) : ""));
    const values = el("p");
    values.append(el("strong", "", `${t("rules.values")} `), document.createTextNode(valuesText(option, spec)));
    const def = el("p");
    def.append(el("strong", "", `${t("rules.default")} `),
      document.createTextNode(spec.default === null || spec.default === undefined
        ? t("value.auto") : withLabel(option, spec.default)));
    dd.append(values, def);
    items.push(dt, dd);
  }
  list.replaceChildren(...items);
}

function renderAll() {
  renderText();
  if (!meta) return;
  renderPresets();
  renderOptions();
}

async function init() {
  await setUpPage();
  document.addEventListener("languagechange", renderAll);
  renderText();
  try {
    meta = await api("GET", "/api/rules");
  } catch {
    document.getElementById("rules-error").textContent = t("rules.load_error");
    return;
  }
  renderAll();
}

init();
