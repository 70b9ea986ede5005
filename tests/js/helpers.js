// @ts-check
// What the client's unit tests share: the real language files (every catalogue), and a
// view as the server sends it (every field of protocol.js's View) to change per test.

import { readdirSync, readFileSync } from "node:fs";
import { useDictionaries } from "../../app/static/js/i18n.js";
import { Phase, SETTING_DEFAULTS } from "../../app/static/js/protocol.js";

/** @typedef {import("../../app/static/js/protocol.js").View} View */
/** @typedef {import("../../app/static/js/protocol.js").SeatInfo} SeatInfo */

const I18N = new URL("../../app/static/i18n/", import.meta.url);

/** Language `code`'s texts: the shared catalogue and every page's own (i18n/<part>/).
 * @param {string} code */
function dictionary(code) {
  const parts = readdirSync(I18N, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  const urls = [new URL(`${code}.json`, I18N), ...parts.map((part) => new URL(`${part.name}/${code}.json`, I18N))];
  return /** @type {Record<string, string>} */ (Object.assign({},
    ...urls.map((url) => JSON.parse(readFileSync(url, "utf8")))));
}

/** Use language `code` ("en", "nb", "fr") as the page would after loading it.
 * @param {string} code */
export function useLanguage(code) {
  const english = dictionary("en");
  useDictionaries(code, code === "en" ? english : dictionary(code), english);
}

/** A person's seat.
 * @param {number} seat
 * @param {string | null} name
 * @returns {SeatInfo} */
export function seatInfo(seat, name) {
  return {
    seat, name, bot: name ? null : "normal", human: Boolean(name), connected: Boolean(name),
    away: false, host: seat === 0, ready: false, takeover: false, joining: null, again: false, from_deal: 0,
  };
}

/** A four-seat view in play, seen by seat 0 (Anna); `changes` replace its fields.
 * @param {Partial<View>} [changes]
 * @returns {View} */
export function makeView(changes = {}) {
  /** @type {View} */
  const view = {
    phase: Phase.PLAY, you: 0, turn: 0, hand: ["AS", "TH"], legal: [], contract: null,
    trick: [], tricks_won: [0, 0, 0, 0], scores: [0, 0, 0, 0], players: 4, dealer: 3,
    deal_number: 1, hand_size: 10, hand_counts: [2, 2, 2, 2], auction: [], kitty: null,
    kitty_size: 2, discards: null, last_trick: null, tricks: [], tricks_played: 0,
    minus_round: false, result: null, score_sheet: [], winners: [], redeal: null,
    you_are_partner: false,
    room: {
      code: "k7mq2x9p4w", practice: false, host: 0, you_are_host: true, your_seat: 0,
      seats: [seatInfo(0, "Anna"), seatInfo(1, "Bjørn"), seatInfo(2, null), seatInfo(3, "Chloé")],
      spectators: 0, rules: { preset: "standard" }, rules_resolved: { players: 4 },
      settings: { ...SETTING_DEFAULTS, bot_levels: ["random", "easy", "normal", "strong"] },
      next_deal_at: null, clock: null, chat: [], match_number: 1, record_available: false,
      history: [], reviewable: [], stood_in: [],
    },
  };
  return { ...view, ...changes };
}
