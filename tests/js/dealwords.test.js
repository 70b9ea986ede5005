// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { auctionLines, contractPieces, trickWords } from "../../app/static/js/dealwords.js";
import { Phase } from "../../app/static/js/protocol.js";
import { secretPartner } from "../../app/static/js/table.js";
import { t } from "../../app/static/js/i18n.js";
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

test("the partner's own view says the others do not know yet, until the called card is played", () => {
  useLanguage("en");
  // Anna (seat 0) holds the called ace of spades: she knows from the call.
  const holder = makeView({ you_are_partner: true, hand: ["AS", "TH"] });
  const c = contract({ partner: 0 });
  assert.ok(secretPartner(holder, c));
  assert.equal(text(contractPieces(holder, c)),
    "Bjørn bid 8. Trump: hearts. Called: [AS]. You are the partner (only you know it until the called card is played)");
  assert.doesNotMatch(text(contractPieces(holder, c)), /Partner: Anna/);
  // once the ace is played, everyone knows
  const played = makeView({ you_are_partner: true, hand: ["TH"] });
  assert.ok(!secretPartner(played, c));
  assert.match(text(contractPieces(played, c)), /Partner: Anna$/);
  // another seat's view never has the secret
  assert.ok(!secretPartner(makeView({ hand: ["AS"] }), contract({ partner: 3 })));
  for (const lang of ["nb", "fr"]) {
    useLanguage(lang);
    assert.notEqual(t("seat.partner_secret"), t("seat.partner"), lang);
    assert.match(text(contractPieces(holder, c)), lang === "nb" ? /bare du vet det/ : /vous seul le savez/);
  }
});
