// @ts-check
// The rules page's quick start: the whole game on one phone screen, for the preset the
// reader picks (the default one first).  Every figure in it is the engine's: the preset's
// `resolved` rule set at four players from GET /api/rules, as in the rest of the page.

import { t } from "./i18n.js";
import { presetFigures } from "./lobby.js";
import { byId, el } from "./dom.js";

/** @typedef {import("./rulesmeta.js").RulesMeta} RulesMeta */
/** @typedef {import("./rulesmeta.js").Resolved} Resolved */

// The table size the quick start quotes, like the rest of the page.
const QUOTED_SIZE = 4;

/** The quick start's points for a rule set as the engine resolves it: each point is the
 *  i18n keys of its sentences, chosen by the options that change what a newcomer does
 *  (the kitty, its trick, who bids first, Amerikaner, how the match ends).
 * @param {Resolved} r
 * @returns {string[][]} */
export function quickKeys(r) {
  const kitty = r.kitty > 0;
  const points = [
    [kitty ? "rules.quick.deal_kitty" : "rules.quick.deal"],
    // who opens the auction (the dealer under fullstokk), then the bids
    [`rules.quick.first_${r.first_bidder}`, "rules.quick.bid",
      ...(r.amerikaner ? ["rules.quick.amerikaner"] : [])],
    [...(kitty ? ["rules.quick.kitty"] : []), "rules.quick.call"],
    ["rules.quick.play"],
    ["rules.quick.score", ...(kitty && r.kitty_trick ? ["rules.quick.kitty_trick"] : [])],
  ];
  if (r.match === "target") points.push(["rules.quick.end"]);
  return points;
}

/** Fill the preset picker (once) and the points for the preset it shows.
 * @param {RulesMeta} meta */
export function renderQuickStart(meta) {
  const select = byId("quick-preset", HTMLSelectElement);
  const chosen = select.value || meta.default;
  select.replaceChildren(...meta.presets.map((preset) => {
    // The short name keeps the picker narrow on a phone; the presets section says more.
    const option = el("option", "", t(`preset.short.${preset}`));
    option.value = preset;
    return option;
  }));
  select.value = meta.presets.includes(chosen) ? chosen : meta.default;
  if (!select.dataset.wired) {
    select.dataset.wired = "1";
    select.addEventListener("change", () => renderQuickPoints(meta, select.value));
  }
  renderQuickPoints(meta, select.value);
}

/**
 * @param {RulesMeta} meta
 * @param {string} preset */
function renderQuickPoints(meta, preset) {
  const r = presetFigures(meta, preset, QUOTED_SIZE);
  const list = byId("quick-list");
  list.dataset.preset = preset;
  list.replaceChildren(...quickKeys(r).map((keys) =>
    el("li", "", keys.map((key) => t(key, r)).join(" "))));
}
