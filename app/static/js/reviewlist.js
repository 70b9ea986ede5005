// @ts-check
// Your reviews of this match's deals: every finished deal can be reviewed at any time of
// the match, and a review asked just before the next deal started is kept and shown here
// when it comes.  The result panel shows the review of the deal just finished
// (`shownReview`); this panel, all of them, and those of earlier matches' deals asked
// from the earlier matches' panel (`earlierReviewButtons`).

import { t } from "./i18n.js";
import { byId, el, replaceIfDifferent } from "./dom.js";
import { Phase } from "./protocol.js";
import { reviewContent } from "./review.js";
import { reviewKey } from "./uistate.js";

/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./protocol.js").MatchSummary} MatchSummary */
/** @typedef {import("./uistate.js").UiState} UiState */

/** The key of the review the result panel shows (the deal just finished), or null.
 * @param {View} view */
export function shownReview(view) {
  if (view.phase !== Phase.DEAL_OVER && view.phase !== Phase.MATCH_OVER) return null;
  const deals = view.room.reviewable;
  const last = deals[deals.length - 1];
  return last === undefined ? null : reviewKey(view.room.match_number, last);
}

/** A review button for deal `deal` (its index in the match); of an earlier match if
 *  `match` is given (then its name says which match and deal).
 * @param {number} deal
 * @param {boolean} enabled
 * @param {number | null} [match] */
export function reviewButton(deal, enabled, match = null) {
  const earlier = match !== null;
  const b = el("button", "", earlier ? t("review.earlier_button", { n: deal + 1, m: match }) : t("review.button"));
  b.type = "button";
  b.dataset.action = "review";
  b.dataset.key = earlier ? `review-${match}-${deal}` : `review-${deal}`;
  b.dataset.deal = String(deal);
  if (earlier) b.dataset.match = String(match);
  b.disabled = !enabled;
  return b;
}

/** The review buttons of an earlier match's deals (for its part of the earlier matches'
 *  panel; a button a row of its score sheet, in order), or null: not seated, or a match
 *  logged before earlier matches could be reviewed.
 * @param {View} view
 * @param {UiState} ui
 * @param {MatchSummary} match */
export function earlierReviewButtons(view, ui, match) {
  const deals = match.reviewable || [];
  if (view.room.your_seat === null || view.room.your_seat === undefined || !deals.length) return null;
  const list = el("ul", "history-reviews");
  for (const deal of deals) {
    const li = el("li");
    li.append(reviewButton(deal, mayAsk(ui, reviewKey(match.number, deal)), match.number));
    list.append(li);
  }
  return list;
}

/** Whether deal `deal` of match `match` is one of the match on the table (its reviews are
 *  listed with it); else an earlier match's (also the last one's, back in the lobby).
 * @param {View} view
 * @param {number} match
 * @param {number} deal */
export function ofThisMatch(view, match, deal) {
  return match === view.room.match_number && view.room.reviewable.includes(deal);
}

/** The earlier matches' reviews asked on this page, newest match first: [match, deal].
 * @param {View} view
 * @param {UiState} ui
 * @returns {[number, number][]} */
function earlierAsked(view, ui) {
  /** @type {[number, number][]} */
  const out = [];
  for (const key of ui.reviews.keys()) {
    const [match, deal] = key.split(":").map(Number);
    if (match !== undefined && deal !== undefined && !ofThisMatch(view, match, deal)) out.push([match, deal]);
  }
  return out.sort((a, b) => b[0] - a[0] || b[1] - a[1]);
}

/** Whether deal `key`'s review may be asked (again): never asked, or it failed.
 * @param {UiState} ui
 * @param {string} key */
export function mayAsk(ui, key) {
  if (!ui.reviews.has(key)) return true;
  const message = ui.reviews.get(key);
  return Boolean(message && "error" in message.review);
}

/**
 * @param {View} view
 * @param {UiState} ui */
export function renderReviews(view, ui) {
  const box = byId("reviews-box");
  const deals = view.room.reviewable;
  const earlier = earlierAsked(view, ui);
  box.hidden = view.you === null || view.you === undefined || !(deals.length || earlier.length);
  if (box.hidden) return;
  const parts = [];
  for (const deal of [...deals].reverse()) {  // the newest first
    const key = reviewKey(view.room.match_number, deal);
    const part = el("section", "review");
    part.append(el("h3", "", t("review.deal", { n: deal + 1 })));
    if (ui.reviews.has(key)) part.append(...reviewContent(ui.reviews.get(key) ?? null).slice(1));
    if (mayAsk(ui, key)) part.append(reviewButton(deal, true));
    parts.push(part);
  }
  // then the earlier matches' asked here (their buttons are in the earlier matches' panel)
  for (const [match, deal] of earlier) {
    const key = reviewKey(match, deal);
    const part = el("section", "review");
    part.append(el("h3", "", t("review.match_deal", { m: match, n: deal + 1 })));
    part.append(...reviewContent(ui.reviews.get(key) ?? null).slice(1));
    if (mayAsk(ui, key)) part.append(reviewButton(deal, true, match));
    parts.push(part);
  }
  replaceIfDifferent(byId("reviews"), parts);
}
