// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { cardInSentence, cardName, serverMessage, t } from "../../app/static/js/i18n.js";
import { suitOf } from "../../app/static/js/cards.js";
import { useLanguage } from "./helpers.js";

test("a card's name in each language, and both jokers are the Joker", () => {
  useLanguage("en");
  assert.equal(cardName("AS"), "Ace of spades");
  assert.equal(cardName("TH"), "Ten of hearts");
  assert.equal(cardName("JK2"), "Joker");
  useLanguage("nb");
  assert.equal(cardName("AS"), "Spar ess");
  useLanguage("fr");
  assert.equal(cardName("AS"), "As de pique");
});

test("a card inside a sentence: lower case in Norwegian, with its article in French", () => {
  useLanguage("en");
  assert.equal(cardInSentence("AS"), "Ace of spades");
  useLanguage("nb");
  assert.equal(cardInSentence("2H"), "hjerter to");
  useLanguage("fr");
  assert.equal(cardInSentence("AH"), "l'as de cœur");
  assert.equal(cardInSentence("2S"), "le deux de pique");
});

test("placeholders are filled, a missing key falls back to English, then to the key", () => {
  useLanguage("nb");
  assert.equal(t("seat.bot", { n: 3 }), "Robot 3");
  assert.equal(t("no.such.key"), "no.such.key");
  useLanguage("en");
  assert.equal(t("log.won_by", { name: "Anna" }), "won by Anna");
});

test("a server error: its own English message in English, the code's translation otherwise", () => {
  useLanguage("en");
  assert.equal(serverMessage("not_your_turn", "Seat 2 is to act."), "Seat 2 is to act.");
  useLanguage("fr");
  assert.equal(serverMessage("not_your_turn", "Seat 2 is to act."), "Ce n'est pas votre tour.");
  assert.equal(serverMessage("never_heard_of", "As sent."), "As sent.");
});

test("suits from card ids; a joker has none", () => {
  assert.equal(suitOf("QD"), "D");
  assert.equal(suitOf("TC"), "C");
  assert.equal(suitOf("JK1"), null);
});
