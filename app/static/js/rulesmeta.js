// @ts-check
// The shape of GET /api/rules (app/rooms/server/rules_info.py): the presets, every option
// with its kind of value, and the engine's figures for each preset and table size.  Types
// only; the lobby and the rules page read the answer.

/**
 * @typedef {object} OptionSpec
 * @property {"choice" | "bool" | "int" | "int_or_derived" | "match"} type
 * @property {(string | number | boolean)[]} [values] a choice's values
 * @property {number} [min]
 * @property {number} [max]
 * @property {unknown} default
 */

/** A rule set as the engine resolves it: every option and figure ({hand_size}, {kitty}...).
 * @typedef {Record<string, any>} Resolved */

/**
 * @typedef {object} RulesMeta
 * @property {string[]} presets
 * @property {string} default the preset a new room starts with
 * @property {Record<string, Record<string, unknown>>} preset_options what each preset sets
 * @property {Record<string, OptionSpec>} options
 * @property {Record<string, Record<string, Resolved>>} resolved by preset, then table size ("4")
 * @property {Record<string, { sources: string[], conventions: string[] }>} provenance
 * @property {Record<string, string[]>} option_conventions
 * @property {string[]} bot_levels
 * @property {string} best_bot
 */

export {};
