// @ts-check
// What the client reads inside the protocol's open fields: a game action in the record's
// shape (`view.legal`, a hint's `action`, a review's choices), a hint's reason and a
// deal's review (app/bots/hints.py, review.py).  protocol.js types these fields as plain
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

/** One reviewed decision.
 * @typedef {object} Decision
 * @property {import("./protocol.js").PhaseValue} phase
 * @property {number | null} trick the trick's number in play
 * @property {Action} chosen
 * @property {Action} best the strong bot's choice
 * @property {number} loss in points, averaged over the samples
 * @property {number} [loss_error] the loss's standard error
 */

/** A deal's review (`review` frame's `review`).
 * @typedef {object} Review
 * @property {string} [error] no review: why
 * @property {boolean} [busy] the server was too busy (ask again later)
 * @property {number | null} [double_dummy] what perfect play would have taken
 * @property {number} [side_tricks] what the bidder's side took
 * @property {Decision[]} [decisions] biggest losses first
 */

export {};
