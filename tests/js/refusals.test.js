// @ts-check
// Issue 39: a refusal reads in the page's language.  The rules' reason (an error frame's
// `reason` and `params`) is worded by the client with the card, suit and number in that
// language; the host's refused rules name the option in it; no English message of the
// server is put inside a Norwegian or French sentence.
import { test } from "node:test";
import assert from "node:assert/strict";
import { serverMessage } from "../../app/static/js/i18n.js";
import { rulesErrorText } from "../../app/static/js/lobby.js";
import { brokenAt } from "../../app/static/js/replaywords.js";
import { Refusal } from "../../app/static/js/protocol.js";
import { useLanguage } from "./helpers.js";

const KEEP = "keep at least one card of a suit another player holds: you must be able to lead and call a partner";

test("the rules' reason in each language, its card, suit and figure in that language", () => {
  useLanguage("en");
  assert.equal(serverMessage("illegal_bid", "the lowest bid is 7", Refusal.BID_LOWEST, { n: 7 }),
    "The lowest bid is 7.");
  assert.equal(serverMessage("illegal_discard", KEEP, Refusal.DISCARD_KEEPS_LEAD, {}),
    "Keep at least one card of a suit another player holds: you must be able to lead and call a partner.");
  useLanguage("nb");
  assert.equal(serverMessage("illegal_bid", "the lowest bid is 7", Refusal.BID_LOWEST, { n: 7 }),
    "Det laveste budet er 7.");
  assert.equal(serverMessage("illegal_play", "you must follow hearts", Refusal.MUST_FOLLOW, { suit: "H" }),
    "Du må følge farge: hjerter.");
  assert.equal(serverMessage("illegal_discard", KEEP, Refusal.DISCARD_KEEPS_LEAD, {}),
    "Behold minst ett kort i en farge en annen spiller har: du må kunne spille ut og rope en makker.");
  useLanguage("fr");
  assert.equal(serverMessage("illegal_play", "the Ace of spades is not in your hand", Refusal.NOT_IN_HAND,
    { card: "AS" }), "L'as de pique n'est pas dans votre main.");
  assert.equal(serverMessage("illegal_discard", "discard exactly 1 cards", Refusal.DISCARD_COUNT, { n: 1 }),
    "Écartez exactement 1 carte.");
  assert.equal(serverMessage("illegal_bid", "the lowest bid is 7", Refusal.BID_LOWEST, { n: 7 }),
    "L'enchère la plus basse est 7.");
});

test("every reason of the rules reads in every language without the server's English", () => {
  /** @type {Record<string, string | number>} */
  const params = { n: 4, card: "QH", suit: "C" };
  for (const code of ["en", "nb", "fr"]) {
    useLanguage(code);
    for (const reason of Object.values(Refusal)) {
      const text = serverMessage("illegal_action", "ENGLISH DETAIL", reason, params);
      assert.ok(!text.includes("ENGLISH DETAIL") && !text.includes("refusal."), `${code} ${reason}: ${text}`);
      assert.ok(!/\{\w+\}/.test(text), `${code} ${reason}: an unfilled placeholder in ${text}`);
    }
  }
});

test("an error without a reason: its code's text outside English, never the English message", () => {
  useLanguage("nb");
  assert.equal(serverMessage("name_taken", "somebody at the table is called Ann"),
    "Noen ved bordet har allerede det navnet.");
  useLanguage("fr");
  assert.equal(serverMessage("bad_rules", "max_bid: must be at most 13"), "Ces règles ne vont pas ensemble.");
});

test("refused rules: English gives the server's words, Norwegian and French name the option", () => {
  const error = { option: "max_bid", message: "max_bid: must be at most 13" };
  useLanguage("en");
  assert.equal(rulesErrorText(error), "Those rules do not work: max_bid: must be at most 13");
  useLanguage("nb");
  const nb = rulesErrorText(error);
  assert.ok(!nb.includes("must be"), nb);
  assert.match(nb, /^De reglene går ikke: se .+\.$/);
  useLanguage("fr");
  const fr = rulesErrorText(error);
  assert.ok(!fr.includes("must be"), fr);
  assert.match(fr, /^Ces règles ne fonctionnent pas : voyez .+\.$/);
});

test("where a record breaks a rule, in the page's language from the error's fields", () => {
  useLanguage("nb");
  assert.equal(serverMessage("bad_record", "this record does not replay: deal 1, action 9: ..."),
    "Den filen er ikke en protokoll som kan spilles av.");
  assert.equal(brokenAt({ deal: 0, action: 8 }), "Den bryter en regel i omgang 1, handling 9.");
  useLanguage("fr");
  assert.equal(brokenAt({ deal: 1 }), "Elle enfreint une règle dans la donne 2.");
  assert.equal(brokenAt({}), null);
});
