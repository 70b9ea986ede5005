// @ts-check
// A deal's review (asked for after a deal): your own decisions next to the strong bot's,
// the biggest losses in the order they were made, and what perfect play would have given.  Also the practice
// hint's reason.  Both come from the server's bots (app/bots/review.py, hints.py); this
// only puts them in words.

import { cardInSentence, pluralKey, t, tn } from "./i18n.js";
import { bidText } from "./table.js";
import { el } from "./dom.js";
import { DoubleDummySkipped, Phase } from "./protocol.js";

/** @typedef {import("./protocol.js").ReviewFrame} ReviewFrame */
/** @typedef {import("./payloads.js").Reason} Reason */
/** @typedef {import("./protocol.js").ReviewDecision} Decision */
/** @typedef {import("./payloads.js").Action} Action */

const CARD_PARAMS = new Set(["card", "call", "winner"]);
const SHOWN = 6; // the biggest losses; the rest are small

/** A hint's or review's parameters in words: card ids as names, suits by name.
 * @param {Record<string, unknown>} params */
function words(params) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const [key, value] of Object.entries(params || {})) {
    if (CARD_PARAMS.has(key) && typeof value === "string") out[key] = cardInSentence(value);
    else if (key === "cards" && Array.isArray(value)) out[key] = value.map(cardInSentence).join(", ");
    else if (key === "trump") out[key] = typeof value === "string" && value ? t(`suit.${value}`) : t("contract.no_trump");
    else if (key === "voids" && Array.isArray(value)) out[key] = value.map((s) => t(`suit.${s}`)).join(", ");
    else out[key] = value;
  }
  return out;
}

/** The practice hint with its reason ("Hint: Bid 9: about 8.6 tricks expected with clubs
 * as trump."); a reason that counts tricks takes the form of its count ("1,5 pli").
 * @param {Reason | null} reason */
export function hintReason(reason) {
  if (!reason) return null;
  const tricks = reason.params ? reason.params.tricks : undefined;
  const key = typeof tricks === "number" ? pluralKey(reason.key, tricks) : reason.key;
  const text = t(key, words(reason.params));
  // the plain texts ("Hint: the best bot would ...") say "Hint" themselves
  return text.startsWith(t("hint.reason", { reason: "" }).trim()) ? text : t("hint.reason", { reason: text });
}

/** An action in words: "bid 9", "pass", "Ace of hearts", "discard …".
 * @param {Action | null} action */
export function actionWords(action) {
  if (!action) return "";
  if (action.bid !== undefined) {
    if (action.bid === "pass") return t("review.pass");
    return t("review.bid", { n: action.bid === "amerikaner" ? bidText(action.bid) : action.bid });
  }
  if (Array.isArray(action.discard)) return t("review.discard", { cards: action.discard.map(cardInSentence).join(", ") });
  if (!action.play) return "";
  if (action.call) return t("review.lead_call", { card: cardInSentence(action.play), call: cardInSentence(action.call) });
  return cardInSentence(action.play);
}

/** One decision in words: where, what you chose, what the strong bot would, the loss.
 * @param {Decision} d */
export function decisionText(d) {
  // the first lead and call is a decision of its own (it has no trick number yet)
  const where = d.phase === Phase.PLAY && d.trick ? t("review.trick", { n: d.trick }) : t(`review.phase.${d.phase}`);
  const loss = Math.round(d.loss * 10) / 10;
  return tn("review.decision", loss, {
    where, chosen: actionWords(d.chosen), best: actionWords(d.best), loss,
  });
}

/** The decisions worth showing: those the server judged clear of the noise (never a
 *  followed practice hint), the SHOWN biggest, in the order they were made so the deal
 *  reads as it was played.
 * @param {Decision[]} decisions biggest losses first (as the server sends them) */
export function clearLosses(decisions) {
  return decisions.filter((d) => d.clear).slice(0, SHOWN).sort((a, b) => a.index - b.index);
}

/** The review panel's content for `message` (a "review" frame), or a waiting line.
 * @param {ReviewFrame | null} message */
export function reviewContent(message) {
  /** @type {HTMLElement[]} */
  const box = [el("h3", "", t("review.heading"))];
  if (!message) return [...box, el("p", "hint", t("review.waiting"))];
  const r = message.review;
  if ("error" in r) return [...box, el("p", "error", t(r.busy ? "review.busy" : "review.failed"))];
  // Where the line with every card known comes from, or that it was not worked out.
  if (r.double_dummy !== null && r.double_dummy_from_trick && r.double_dummy_from_trick > 1) {
    box.push(el("p", "", tn("review.double_dummy_late", r.double_dummy,
      { k: r.double_dummy_from_trick, n: r.double_dummy, took: r.side_tricks })));
  } else if (r.double_dummy !== null) {
    box.push(el("p", "", tn("review.double_dummy", r.double_dummy, { n: r.double_dummy, took: r.side_tricks })));
  } else if (r.bidder !== null && r.side_tricks !== null) {
    // why not: the server was busy, or the deal takes longer to solve than the review has
    box.push(el("p", "hint", t(r.double_dummy_skipped === DoubleDummySkipped.BUSY
      ? "review.double_dummy_busy" : "review.double_dummy_skipped")));
  }
  const clear = clearLosses(r.decisions);
  if (!clear.length) return [...box, el("p", "", t("review.none"))];
  const list = el("ol", "review-list");
  list.append(...clear.map((d) => el("li", "", decisionText(d))));
  return [...box, list];
}
