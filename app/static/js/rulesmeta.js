// @ts-check
// The shape of GET /api/rules (app/rooms/server/rules_info.py): the presets, every option
// with its kind of value, the engine's figures for each preset and table size, and the
// worked example.  Types only; the lobby and the rules page read the answer.

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
 * @property {Example} example the rules page's worked example
 */

/**
 * @typedef {object} ExampleTrick
 * @property {number} leader
 * @property {string[]} cards in the order played, from the leader
 * @property {number} winner
 */

/** One deal of the standard preset played through the engine (rules_example.py).
 * @typedef {object} Example
 * @property {string} preset
 * @property {number} players
 * @property {string[]} names
 * @property {number} dealer
 * @property {{ seat: number, bid: number | string }[]} auction
 * @property {number} bidder
 * @property {number} bid
 * @property {string[]} kitty
 * @property {string[]} discards
 * @property {string} lead
 * @property {string | null} call
 * @property {string} trump a suit letter
 * @property {number | null} partner
 * @property {ExampleTrick[]} tricks the first two
 * @property {number[]} tricks_won by seat
 * @property {number} side_tricks won by the bidder and the partner
 * @property {number} kitty_trick 1 when the kitty counts as a trick
 * @property {boolean} made
 * @property {number[]} points by seat
 */

export {};
