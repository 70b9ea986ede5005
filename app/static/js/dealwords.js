// @ts-check
// The deal log's wording, without the DOM: each line as text and card pieces, which
// deallog.js turns into elements (a card piece becomes a card chip).  Drawn from the view
// alone, so the log is complete after a reload (tests/js/dealwords.test.js).

import { t } from "./i18n.js";
import { Phase } from "./protocol.js";
import { bidText, seatName, secretPartner } from "./table.js";

/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./protocol.js").ContractWire} Contract */
/** @typedef {import("./protocol.js").LastTrick} LastTrick */
/** A piece of a line: text, or a card shown as a chip.
 * @typedef {string | { card: string }} Piece */

/** The auction, a line a bid: "Anna: 7".
 * @param {View} view
 * @returns {string[]} */
export function auctionLines(view) {
  return (view.auction || []).map((entry) =>
    t("auction.line", { name: seatName(view, entry.seat), bid: bidText(entry.bid) }));
}

/** The contract in one line: bidder and bid, trump (or none), the call, the partner
 *  once known, or "alone" when no card was called.
 * @param {View} view
 * @param {Contract} c
 * @returns {Piece[]} */
export function contractPieces(view, c) {
  if (secretPartner(view, c)) {
    // the holder knows from the call; the others do not until the card is played
    const pieces = contractPhrase({ ...c, partner: null }, (seat) => seatName(view, seat), false);
    return [...pieces, ". ", t("contract.you_are_partner")];
  }
  return contractPhrase(c, (seat) => seatName(view, seat),
    view.phase !== Phase.AUCTION && view.phase !== Phase.DISCARD);
}

/** A contract in words, its seats named by ``name`` (the table's view, or a replay's
 *  players); "alone" is said only once ``callMade`` (no card called after the call).
 * @param {Contract} c
 * @param {(seat: number) => string} name
 * @param {boolean} callMade
 * @returns {Piece[]} */
export function contractPhrase(c, name, callMade) {
  /** @type {Piece[]} */
  const pieces = [t("contract.bid", { name: name(c.bidder), bid: bidText(c.bid ?? "") })];
  if (c.bid === "amerikaner") return pieces;
  if (c.grand || (!c.trump && c.called)) pieces.push(". ", t("contract.no_trump"));
  else if (c.trump) pieces.push(". ", t("contract.trump"), " ", t(`suit.${c.trump}`));
  if (c.called) pieces.push(". ", t("contract.called"), " ", { card: c.called });
  if (c.partner !== null && c.partner !== c.bidder) {
    pieces.push(". ", t("contract.partner", { name: name(c.partner) }));
  } else if (c.called === null && callMade) {
    pieces.push(". ", t("log.alone"));
  }
  return pieces;
}

/**
 * @typedef {object} TrickWords
 * @property {string} number "Trick 3"
 * @property {{ who: string, card: string, won: boolean }[]} plays in play order
 * @property {string} wonBy "won by Anna"
 */

/** A finished trick in words.
 * @param {View} view
 * @param {LastTrick} trick
 * @param {number} index the trick's place in the deal, from 0
 * @returns {TrickWords} */
export function trickWords(view, trick, index) {
  return {
    number: t("log.trick", { n: index + 1 }),
    plays: trick.cards.map((play) => ({
      who: seatName(view, play.seat), card: play.card, won: play.seat === trick.winner,
    })),
    wonBy: t("log.won_by", { name: seatName(view, trick.winner) }),
  };
}
