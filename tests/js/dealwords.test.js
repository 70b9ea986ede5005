// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { auctionLines, contractPieces, trickWords } from "../../app/static/js/dealwords.js";
import { Phase } from "../../app/static/js/protocol.js";
import { makeView, useLanguage } from "./helpers.js";

/** @typedef {import("../../app/static/js/protocol.js").ContractWire} ContractWire */

/** @param {Partial<ContractWire>} changes
 * @returns {ContractWire} */
function contract(changes) {
  return { bidder: 1, bid: 8, trump: "H", called: "AS", partner: null, grand: false, ...changes };
}

/** @param {import("../../app/static/js/dealwords.js").Piece[]} pieces */
function text(pieces) {
  return pieces.map((p) => (typeof p === "string" ? p : `[${p.card}]`)).join("");
}

test("the auction: one line a bid, named by seat; a bot seat by its number", () => {
  useLanguage("en");
  const view = makeView({ auction: [{ seat: 1, bid: "pass" }, { seat: 2, bid: 7 }, { seat: 3, bid: "amerikaner" }] });
  assert.deepEqual(auctionLines(view), ["Bjørn: pass", "Bot 3: 7", "Chloé: Amerikaner"]);
});

test("the contract: bid, trump, the called card as a card, the partner once known", () => {
  useLanguage("en");
  const view = makeView();
  assert.equal(text(contractPieces(view, contract({ partner: 3 }))),
    "Bjørn bid 8. Trump: hearts. Called: [AS]. Partner: Chloé");
});

test("no partner known: alone only once the call is made without a card", () => {
  useLanguage("en");
  const playing = makeView({ phase: Phase.PLAY });
  assert.equal(text(contractPieces(playing, contract({ called: null }))),
    "Bjørn bid 8. Trump: hearts. The bidder plays alone");
  // during the discard the call is still to come: nothing is said of a partner
  const discarding = makeView({ phase: Phase.DISCARD });
  assert.equal(text(contractPieces(discarding, contract({ called: null, trump: null }))), "Bjørn bid 8");
  // a called card whose holder is not known yet: no partner, not alone
  assert.equal(text(contractPieces(playing, contract({}))), "Bjørn bid 8. Trump: hearts. Called: [AS]");
});

test("grand, and a call without trump, say no trump; Amerikaner says only the bid", () => {
  useLanguage("en");
  const view = makeView();
  assert.equal(text(contractPieces(view, contract({ grand: true, trump: null }))),
    "Bjørn bid 8. No trump. Called: [AS]");
  assert.equal(text(contractPieces(view, contract({ bid: "amerikaner", partner: 2 }))),
    "Bjørn bid Amerikaner");
});

test("the wording follows the language", () => {
  useLanguage("nb");
  assert.equal(text(contractPieces(makeView(), contract({ partner: 3 }))),
    "Bjørn bød 8. Trumf: hjerter. Ropt: [AS]. Makker: Chloé");
});

test("a trick: its number, who played what with the winner marked, who won it", () => {
  useLanguage("en");
  const trick = { cards: [{ seat: 2, card: "KD" }, { seat: 3, card: "AD" }, { seat: 0, card: "2D" }, { seat: 1, card: "9D" }], winner: 3 };
  const words = trickWords(makeView(), trick, 4);
  assert.equal(words.number, "Trick 5:");
  assert.equal(words.wonBy, "won by Chloé");
  assert.deepEqual(words.plays.map((p) => [p.who, p.card, p.won]),
    [["Bot 3", "KD", false], ["Chloé", "AD", true], ["Anna", "2D", false], ["Bjørn", "9D", false]]);
});
