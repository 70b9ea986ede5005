// @ts-check
// The rules page: a quick start, a table of contents, the game explained (i18n text), a
// worked example, then the presets and every option rendered from GET /api/rules, which
// the server builds from the engine's rule set, so the page cannot drift from the rules
// that are played.  Every figure in a text (hand size, bids, kitty, target...) is a
// placeholder filled from the engine's `resolved`; the example is a deal the server
// played through the engine (rulesexample.js); the quick start is rulesquick.js.

import { addCatalogue, currentLanguage, has, t, tn } from "./i18n.js";
import { optionHelp, optionName, presetFigures, valueLabel } from "./lobby.js";
import { api } from "./net.js";
import { setUpPage } from "./page.js";
import { byId, el, headerRow } from "./dom.js";
import { renderQuickStart } from "./rulesquick.js";
import { renderExample } from "./rulesexample.js";

/** @typedef {import("./rulesmeta.js").RulesMeta} RulesMeta */

/** @typedef {import("./rulesmeta.js").OptionSpec} OptionSpec */

// The table sizes a preset's figures are shown for, and the one the texts quote.
const TABLE_SIZES = [3, 4, 5];
const QUOTED_SIZE = 4;

/** @type {RulesMeta | null} */
let meta = null;

// The rule set the general texts quote: the default preset at four players.
function quoted() {
  return meta ? presetFigures(meta, meta.default, QUOTED_SIZE) : {};
}

function renderText() {
  const box = byId("rules-text");
  const sections = [];
  for (let i = 1; has(`rules.s${i}.title`); i++) {
    const section = el("section");
    const heading = el("h2", "", t(`rules.s${i}.title`));
    heading.id = `rules-s${i}`;
    section.setAttribute("aria-labelledby", heading.id);
    section.append(heading);
    for (const para of t(`rules.s${i}.body`, quoted()).split("\n\n")) section.append(el("p", "", para));
    sections.push(section);
  }
  box.replaceChildren(...sections);
}

// The table of contents: a link to each section's heading, in the page's order.
function renderContents() {
  const headings = [...document.querySelectorAll(".rules-page h2[id]")].filter((h) => h.id !== "toc-heading");
  byId("toc-list").replaceChildren(...headings.map((heading) => {
    const li = el("li");
    const link = el("a", "", heading.textContent ?? "");
    link.href = `#${heading.id}`;
    li.append(link);
    return li;
  }));
}

// The preset table's columns: the options the presets set.
/** @param {RulesMeta} meta */
function presetColumns(meta) {
  const columns = new Set();
  for (const options of Object.values(meta.preset_options || {})) {
    for (const option of Object.keys(options)) columns.add(option);
  }
  return columns.size ? [...columns] : ["kitty", "kitty_trick", "no_callable", "first_bidder"];
}

/** @param {RulesMeta} meta */
function renderPresets(meta) {
  const columns = presetColumns(meta);
  const box = byId("presets-table");
  const table = el("table", "data-table");
  const tbody = el("tbody");
  for (const preset of meta.presets) {
    const r = presetFigures(meta, preset, QUOTED_SIZE);
    const tr = el("tr");
    const th = el("th", "");
    th.scope = "row";
    th.append(el("code", "", preset), el("br"), document.createTextNode(t(`preset.label.${preset}`)));
    tr.append(th);
    for (const option of columns) tr.append(el("td", "", valueLabel(option, r[option])));
    tbody.append(tr);
  }
  table.append(headerRow([t("rules.col.preset"), ...columns.map(optionName)]), tbody);
  box.replaceChildren(table);
}

// A preset's figures for three, four and five players, as the engine resolves them.
/**
 * @param {RulesMeta} meta
 * @param {string} preset
 * @param {string} headingId */
function figuresTable(meta, preset, headingId) {
  const table = el("table", "data-table");
  table.id = `figures-${preset}`;
  table.append(el("caption", "", t("rules.figures_caption")));
  const tbody = el("tbody");
  for (const players of TABLE_SIZES) {
    const r = presetFigures(meta, preset, players);
    const tr = el("tr");
    tr.dataset.players = String(players);
    const th = el("th", "", tn("rules.n_players", players, { n: players }));
    th.scope = "row";
    tr.append(th);
    for (const text of [r.hand_size, r.kitty, `${r.min_bid}–${r.max_bid}`, r.target]) {
      tr.append(el("td", "", String(text)));
    }
    tbody.append(tr);
  }
  table.append(headerRow([optionName("players"), t("rules.col.hand"), optionName("kitty"),
    t("rules.col.bids"), optionName("target")]), tbody);
  const scroll = el("div", "table-scroll");
  scroll.setAttribute("role", "region");
  scroll.setAttribute("aria-labelledby", headingId);
  scroll.tabIndex = 0;
  scroll.append(table);
  return scroll;
}

/**
 * @param {string} label
 * @param {string} text */
function labelled(label, text) {
  const p = el("p");
  p.append(el("strong", "", `${label} `), document.createTextNode(text));
  return p;
}

/**
 * @param {string[]} ids
 * @param {Record<string, unknown>} figures */
function conventionList(ids, figures) {
  const list = el("ul");
  for (const id of ids) list.append(el("li", "", t(`rules.conv.${id}`, figures)));
  return list;
}

/**
 * @param {RulesMeta} meta
 * @param {string} preset */
function presetDetail(meta, preset) {
  const figures = presetFigures(meta, preset, QUOTED_SIZE);
  const provenance = (meta.provenance || {})[preset] || { sources: [], conventions: [] };
  const section = el("section", "preset-detail");
  const heading = el("h3", "", `${t(`preset.label.${preset}`)} `);
  heading.id = `preset-${preset}`;
  heading.append(el("code", "", preset));
  section.append(heading, el("p", "", t(`preset.about.${preset}`, figures)));
  const sources = provenance.sources.map((source) => t(`rules.source.${source}`));
  section.append(labelled(t("rules.follows"),
    new Intl.ListFormat(currentLanguage(), { type: "conjunction" }).format(sources)));
  if (provenance.conventions.length) {
    section.append(el("p", "", t("rules.conventions")), conventionList(provenance.conventions, figures));
  }
  section.append(figuresTable(meta, preset, heading.id));
  return section;
}

/** @param {RulesMeta} meta */
function renderPresetDetails(meta) {
  byId("preset-details").replaceChildren(...meta.presets.map((preset) => presetDetail(meta, preset)));
}

/**
 * @param {string} option
 * @param {unknown} value */
function withLabel(option, value) {
  const label = valueLabel(option, value);
  return label === String(value) ? label : `${value} (${label})`;
}

/**
 * @param {string} option
 * @param {OptionSpec} spec */
function valuesText(option, spec) {
  if (spec.type === "choice") return (spec.values || []).map((v) => withLabel(option, v)).join(", ");
  if (spec.type === "bool") return `true (${t("value.on")}), false (${t("value.off")})`;
  if (spec.type === "int") return t("rules.int_range", { min: spec.min, max: spec.max });
  if (spec.type === "int_or_derived") return t("rules.int_derived");
  if (spec.type === "match") return t("rules.match_values");
  return "";
}

/** @param {RulesMeta} meta */
function renderOptions(meta) {
  byId("options-intro").textContent = t("rules.options_intro",
    { preset: t(`preset.label.${meta.default}`), players: QUOTED_SIZE });
  const list = byId("options-list");
  const items = [];
  const conventions = meta.option_conventions || {};
  for (const [option, spec] of Object.entries(meta.options)) {
    const dt = el("dt");
    dt.id = `option-${option}`;
    dt.append(document.createTextNode(`${optionName(option)} `), el("code", "", option));
    const dd = el("dd");
    dd.append(el("p", "", optionHelp(option, quoted())));
    for (const id of conventions[option] || []) {
      dd.append(labelled(t("rules.convention"), t(`rules.conv.${id}`, quoted())));
    }
    dd.append(labelled(t("rules.values"), valuesText(option, spec)),
      labelled(t("rules.default"), spec.default === null || spec.default === undefined
        ? t("value.auto") : withLabel(option, spec.default)));
    items.push(dt, dd);
  }
  list.replaceChildren(...items);
}

function renderAll() {
  renderText();
  if (meta) {
    renderQuickStart(meta);
    renderExample(meta);
    renderPresets(meta);
    renderPresetDetails(meta);
    renderOptions(meta);
  }
  renderContents();
}

async function init() {
  addCatalogue("rules");  // i18n/rules/<lang>.json: this page's texts
  await setUpPage();
  document.addEventListener("languagechange", renderAll);
  try {
    meta = await api("GET", "/api/rules");
  } catch {
    renderAll();
    byId("rules-error").textContent = t("rules.load_error");
    return;
  }
  renderAll();
  // A link to a section (/rules#rules-s7) arrived before the section was rendered.
  if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
}

init();
