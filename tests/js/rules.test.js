// @ts-check
// The rules page's pure parts: which sentences the quick start says for a rule set, and
// texts with nodes in their placeholders (the worked example's card chips).
import { test } from "node:test";
import assert from "node:assert/strict";
import { has, t, tParts as parts } from "../../app/static/js/i18n.js";
import { quickKeys } from "../../app/static/js/rulesquick.js";
import { resultKey } from "../../app/static/js/rulesexample.js";
import { useLanguage } from "./helpers.js";

// RuleSet("standard").resolved() and RuleSet("fullstokk").resolved(), as far as read here.
const STANDARD = { players: 4, hand_size: 12, kitty: 4, kitty_trick: true, min_bid: 7, max_bid: 13,
  amerikaner: true, first_bidder: "left_of_dealer", target: 52, match: "target" };
const FULLSTOKK = { ...STANDARD, hand_size: 13, kitty: 0, kitty_trick: false, first_bidder: "dealer" };

test("the quick start follows the rule set: kitty, kitty trick, Amerikaner, match end", () => {
  const standard = quickKeys(STANDARD).flat();
  assert.ok(standard.includes("rules.quick.deal_kitty") && standard.includes("rules.quick.kitty"));
  assert.ok(standard.includes("rules.quick.kitty_trick"));
  assert.ok(standard.includes("rules.quick.amerikaner") && standard.includes("rules.quick.end"));
  const fullstokk = quickKeys(FULLSTOKK).flat();
  assert.ok(fullstokk.includes("rules.quick.deal"));
  for (const key of ["rules.quick.kitty", "rules.quick.kitty_trick", "rules.quick.deal_kitty"]) {
    assert.ok(!fullstokk.includes(key), key);
  }
  assert.ok(!quickKeys({ ...STANDARD, amerikaner: false }).flat().includes("rules.quick.amerikaner"));
  assert.ok(!quickKeys({ ...STANDARD, match: "single_deal" }).flat().includes("rules.quick.end"));
});

test("the quick start says who bids first: left of the dealer, or the dealer under fullstokk", () => {
  assert.equal(quickKeys(STANDARD)[1]?.[0], "rules.quick.first_left_of_dealer");
  assert.equal(quickKeys(FULLSTOKK)[1]?.[0], "rules.quick.first_dealer");
  useLanguage("en");
  assert.match(quickKeys(FULLSTOKK)[1]?.map((key) => t(key, FULLSTOKK)).join(" ") ?? "",
    /^The dealer bids first\. /);
});

test("the quick start gives the Amerikaner's points and the called card forced in trick 1", () => {
  /** @type {[string, string][]} */
  const forcedIn = [["en", "must play it to the first trick"],
    ["nb", "må spille det i første stikk"], ["fr", "doit la jouer au premier pli"]];
  for (const [lang, forced] of forcedIn) {
    useLanguage(lang);
    const said = quickKeys({ ...STANDARD, amerikaner_points: 40 }).flat()
      .map((key) => t(key, { ...STANDARD, amerikaner_points: 40 })).join(" ");
    assert.match(said, /\b40\b/, lang);
    assert.ok(said.includes(forced), `${lang}: ${said}`);
  }
});

test("the example adds the kitty's trick only when the preset counts it", () => {
  assert.equal(resultKey({ made: true, kitty_trick: 1 }), "rules.example.made_kitty");
  assert.equal(resultKey({ made: false, kitty_trick: 1 }), "rules.example.failed_kitty");
  assert.equal(resultKey({ made: true, kitty_trick: 0 }), "rules.example.made");
  assert.equal(resultKey({ made: false, kitty_trick: 0 }), "rules.example.failed");
  for (const lang of ["en", "nb", "fr"]) {
    useLanguage(lang);
    const params = { bidder: "Chloé", partner: "David", side: 8, total: 9, bid: 8 };
    assert.match(parts(resultKey({ made: true, kitty_trick: 1 }), params).join(""), /kitty/i, lang);
    const plain = parts(resultKey({ made: true, kitty_trick: 0 }), { ...params, total: 8 }).join("");
    assert.doesNotMatch(plain, /kitty|\b9\b/i, lang);
  }
});

test("every sentence the quick start can say exists in every language", () => {
  const keys = new Set([...quickKeys(STANDARD).flat(), ...quickKeys(FULLSTOKK).flat()]);
  for (const lang of ["en", "nb", "fr"]) {
    useLanguage(lang);
    for (const key of keys) assert.ok(has(key), `${lang} ${key}`);
  }
});

test("a text's placeholders take text, numbers or nodes, in place", () => {
  useLanguage("en");
  const chip = { card: "AH" };  // stands for a card chip node
  const filled = parts("rules.example.call", {
    bidder: "Chloé", lead: /** @type {any} */ (chip), suit: "hearts", call: "A", partner: "David" });
  assert.ok(filled.includes(/** @type {any} */ (chip)));
  const text = filled.map((part) => typeof part === "string" ? part : "[card]").join("");
  assert.equal(text, "Chloé leads the [card], so hearts are trump, and with the same lead calls " +
    "the A. David holds it and is the partner; nobody else knows yet.");
  assert.equal(parts("rules.example.bid", { name: "Bjørn", bid: 7 }).join(""), "Bjørn bids 7");
  assert.equal(parts("rules.example.bid", { name: "Bjørn" }).join(""), "Bjørn bids {bid}");
});
