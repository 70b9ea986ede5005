// @ts-check
// Your reviews of this match's deals: every finished deal can be reviewed at any time of
// the match, and a review asked just before the next deal started is kept and shown here
// when it comes.  The result panel shows the review of the deal just finished
// (`shownReview`); this panel, all of them.

import { t } from "./i18n.js";
import { byId, el, replaceIfDifferent } from "./dom.js";
import { Phase } from "./protocol.js";
import { reviewContent } from "./review.js";
import { reviewKey } from "./uistate.js";

/** @typedef {import("./protocol.js").View} View */
/** @typedef {import("./uistate.js").UiState} UiState */

/** The key of the review the result panel shows (the deal just finished), or null.
 * @param {View} view */
export function shownReview(view) {
  if (view.phase !== Phase.DEAL_OVER && view.phase !== Phase.MATCH_OVER) return null;
  const deals = view.room.reviewable;
  const last = deals[deals.length - 1];
  return last === undefined ? null : reviewKey(view.room.match_number, last);
}

/** A review button for deal `deal` (its index in the match).
 * @param {number} deal
 * @param {boolean} enabled */
export function reviewButton(deal, enabled) {
  const b = el("button", "", t("review.button"));
  b.type = "button";
  b.dataset.action = "review";
  b.dataset.key = `review-${deal}`;
  b.dataset.deal = String(deal);
  b.disabled = !enabled;
  return b;
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
  box.hidden = view.you === null || view.you === undefined || !deals.length;
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
  replaceIfDifferent(byId("reviews"), parts);
}
