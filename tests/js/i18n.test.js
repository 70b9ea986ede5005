// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";
import { cardInSentence, cardName, serverMessage, t, tn } from "../../app/static/js/i18n.js";
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

const RANKS = "23456789TJQKA";
const SUITS = "SHDC";
const ALL_CARDS = [...RANKS].flatMap((r) => [...SUITS].map((s) => `${r}${s}`));

test("French: every card in a sentence has its rank's article, elided only before as", () => {
  useLanguage("fr");
  // "huit" has an aspirated h (le huit), "dame" is feminine, "as" elides (l'as)
  /** @type {Record<string, string>} */
  const article = {
    2: "le deux", 3: "le trois", 4: "le quatre", 5: "le cinq", 6: "le six", 7: "le sept",
    8: "le huit", 9: "le neuf", T: "le dix", J: "le valet", Q: "la dame", K: "le roi", A: "l'as",
  };
  /** @type {Record<string, string>} */
  const suit = { S: "pique", H: "cœur", D: "carreau", C: "trèfle" };
  assert.equal(ALL_CARDS.length, 52);
  for (const id of ALL_CARDS) {
    assert.equal(cardInSentence(id), `${article[id[0] ?? ""]} de ${suit[id[1] ?? ""]}`, id);
  }
  assert.equal(cardInSentence("8D"), "le huit de carreau");
  assert.equal(cardInSentence("QC"), "la dame de trèfle");
  assert.equal(cardInSentence("JK1"), "le joker");
  assert.equal(cardInSentence("JK2"), "le joker");
  // a card on its own (a button, a chip) has no article
  assert.equal(cardName("QC"), "Dame de trèfle");
  assert.equal(cardName("8D"), "Huit de carreau");
});

test("Norwegian and English: every card in a sentence as before", () => {
  /** @type {Record<string, string>} */
  const nbRank = {
    2: "to", 3: "tre", 4: "fire", 5: "fem", 6: "seks", 7: "sju", 8: "åtte", 9: "ni", T: "ti",
    J: "knekt", Q: "dame", K: "konge", A: "ess",
  };
  /** @type {Record<string, string>} */
  const nbSuit = { S: "spar", H: "hjerter", D: "ruter", C: "kløver" };
  useLanguage("nb");
  for (const id of ALL_CARDS) {
    assert.equal(cardInSentence(id), `${nbSuit[id[1] ?? ""]} ${nbRank[id[0] ?? ""]}`, id);
    assert.equal(cardName(id), `${nbSuit[id[1] ?? ""]} ${nbRank[id[0] ?? ""]}`.replace(/^./, (c) => c.toUpperCase()), id);
  }
  assert.equal(cardInSentence("JK1"), "joker");
  useLanguage("en");
  for (const id of ALL_CARDS) assert.equal(cardInSentence(id), cardName(id), id);
  assert.equal(cardInSentence("QC"), "Queen of clubs");
  assert.equal(cardInSentence("JK2"), "Joker");
});

test("a counted phrase takes its language's plural form for 0, 1, 2 and 5", () => {
  /** @type {Record<string, string[]>} */
  const waiting = {
    en: ["0 seats free", "1 seat free", "2 seats free", "5 seats free"],
    nb: ["0 ledige plasser", "1 ledig plass", "2 ledige plasser", "5 ledige plasser"],
    fr: ["0 place libre", "1 place libre", "2 places libres", "5 places libres"],
  };
  /** @type {Record<string, string[]>} */
  const cards = {
    en: ["0 cards", "1 card", "2 cards", "5 cards"],
    nb: ["0 kort", "1 kort", "2 kort", "5 kort"],
    fr: ["0 carte", "1 carte", "2 cartes", "5 cartes"],
  };
  /** @type {Record<string, string[]>} */
  const deals = {
    en: ["0 deals", "1 deal", "2 deals", "5 deals"],
    nb: ["0 omganger", "1 omgang", "2 omganger", "5 omganger"],
    fr: ["0 donne", "1 donne", "2 donnes", "5 donnes"],
  };
  for (const lang of ["en", "nb", "fr"]) {
    useLanguage(lang);
    [0, 1, 2, 5].forEach((n, i) => {
      assert.ok(tn("center.waiting", n, { n }).endsWith(` ${waiting[lang]?.[i]}.`), `${lang} ${n}`);
      assert.equal(tn("seat.cards", n, { n }), cards[lang]?.[i]);
      assert.equal(tn("value.match.deals", n, { n }), deals[lang]?.[i]);
    });
  }
  useLanguage("en");
  assert.equal(tn("discard.prompt", 1, { k: 1 }), "Choose 1 card to discard.");
  assert.equal(tn("discard.prompt", 4, { k: 4 }), "Choose 4 cards to discard.");
  useLanguage("fr");
  assert.equal(tn("discard.chosen", 1, { n: 1, k: 4 }), "1 sur 4 choisie");
  assert.equal(tn("discard.chosen", 2, { n: 2, k: 4 }), "2 sur 4 choisies");
  assert.equal(tn("rules.n_players", 4, { n: 4 }), "4 joueurs");
});

test("every counted phrase has its plural forms in every language, the same placeholders", () => {
  /** @param {string} code */
  const keys = (code) => {
    useLanguage(code);
    return ["center.waiting", "seat.cards", "discard.prompt", "discard.chosen", "hint.bid_expected",
      "hint.pass_weak", "review.decision", "review.double_dummy", "value.match.deals", "rules.n_players"]
      .map((key) => [t(key), t(`${key}.one`)]);
  };
  for (const code of ["en", "nb", "fr"]) {
    for (const [other, one] of keys(code)) {
      assert.notEqual(one, undefined);
      const names = (/** @type {string} */ s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      assert.deepEqual(names(one ?? ""), names(other ?? ""), `${code}: ${one}`);
      assert.doesNotMatch(one ?? "", /\.one$/);
    }
  }
});

test("numbers in a text are written with the language's decimal separator", () => {
  useLanguage("en");
  assert.equal(t("seat.tricks", { n: 10.9 }), "Tricks: 10.9");
  useLanguage("nb");
  assert.equal(t("seat.tricks", { n: 10.9 }), "Stikk: 10,9");
  useLanguage("fr");
  assert.equal(t("seat.tricks", { n: 10.9 }), "Plis : 10,9");
  assert.equal(t("seat.bot", { n: 3 }), "Robot 3");
  assert.equal(t("auction.line", { name: "Anna", bid: "7" }), "Anna : 7");
});
