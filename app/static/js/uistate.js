// @ts-check
// The room page's own state, kept apart from the server's view: the view is what the
// server sent, untouched; this is what the client adds to it (a selection in progress,
// the practice hint for the state shown, the review asked for, what the lobby shows).

/** @typedef {import("./payloads.js").Action} Action */
/** @typedef {import("./payloads.js").Reason} Reason */
/** @typedef {import("./protocol.js").ReviewFrame} ReviewFrame */

/**
 * @typedef {object} UiState
 * @property {Set<string>} discard the cards chosen for the discard so far
 * @property {string | null} leadCard the card picked for the first lead (the call follows)
 * @property {boolean} grand the grand checkbox of the first lead
 * @property {boolean} askingAmerikaner the Amerikaner bid was pressed once: its question
 *   (`Yes, bid Amerikaner`) is open
 * @property {{ option: string, message: string } | null} rulesError the server's refusal of a rule change
 * @property {boolean} rulesOpen the host's rules editor is open
 * @property {Record<string, unknown> | null} rulesSent the rule set last sent while no
 *   frame has shown it yet (a `rules` message replaces the whole set: the next change
 *   builds on this one, not on the frame's, or it would undo the change before it)
 * @property {boolean} botLevelsOpen the lobby's "What the bot levels mean" is open
 * @property {string | null} lobbySignature what the lobby panel shows (redrawn when it changes)
 * @property {string | null} stage deal, phase and turn: a new stage clears the selections
 * @property {Action | null} hint practice: the strong bot's action for the state shown
 * @property {Reason | null} hintReason why (an i18n key and its parameters)
 * @property {Map<string, ReviewFrame | null>} reviews this match's reviews by `reviewKey`
 *   (null: asked, not come yet); kept all match long, so that none is lost
 * @property {string | null} stoodInDismissed the stand-in's moves (`view.room.stood_in`,
 *   as JSON) whose summary the person dismissed
 */

/** The key of deal `deal` (its index in the match) of match `match` in `reviews`.
 * @param {number} match
 * @param {number} deal */
export function reviewKey(match, deal) {
  return `${match}:${deal}`;
}

/** A page's state before the first view.
 * @returns {UiState} */
export function newUiState() {
  return {
    discard: new Set(),
    leadCard: null,
    grand: false,
    askingAmerikaner: false,
    rulesError: null,
    rulesOpen: false,
    rulesSent: null,
    botLevelsOpen: false,
    lobbySignature: null,
    stage: null,
    hint: null,
    hintReason: null,
    reviews: new Map(),
    stoodInDismissed: null,
  };
}

/** Choose `card` for the discard, or put it back; at most `count` cards are chosen.
 *  Whether the discard now has all its cards (then Discard is the next thing to press).
 * @param {Set<string>} chosen the cards chosen so far (changed in place)
 * @param {string} card
 * @param {number} count how many cards the discard takes
 * @returns {boolean} */
export function toggleDiscard(chosen, card, count) {
  if (chosen.has(card)) chosen.delete(card);
  else if (card && chosen.size < count) chosen.add(card);
  return count > 0 && chosen.size === count;
}
