// @ts-check
// What the client reads inside the protocol's open fields: a game action in the record's
// shape (`view.legal`, a hint's `action`, a review's choices) and a hint's reason
// (app/bots/hints.py).  protocol.js types these fields as plain
// records; these typedefs say which keys the client relies on.  Types only.

/** A bid: a number, "pass" or "amerikaner".
 * @typedef {number | string} Bid */

/** An action in the record's shape (`legal` holds the discard as its count).
 * @typedef {object} Action
 * @property {Bid} [bid]
 * @property {string} [play] a card id
 * @property {string | null} [call] the card called with the first lead
 * @property {boolean} [grand]
 * @property {string[] | number} [discard] the cards, or in `legal` how many
 */

/** A hint's reason: an i18n key and its parameters (card ids, suit letters, numbers).
 * @typedef {{ key: string, params: Record<string, unknown> }} Reason */

export {};
