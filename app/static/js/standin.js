// @ts-check
// What a bot did for you while you were away (issue 39). Only the server knows it all
// (the page may have been closed, or missed the frames while the network was down), so
// the seat's own view carries it: `view.room.stood_in`, your own moves only, until your
// own next move. The words here (testable in Node); the panel, shown until dismissed.

import { cardInSentence, t } from "./i18n.js";
import { byId, el } from "./dom.js";

/** @typedef {import("./protocol.js").ActionJson} ActionJson */

/** The cards in a sentence: "the Seven of hearts, the King of spades".
 * @param {string[]} cards */
function cardList(cards) {
  return cards.map(cardInSentence).join(", ");
}

/** One sentence saying what the stand-in did, in the order it did it (its plays
 * together), or "" when it did nothing.
 * @param {ActionJson[]} actions
 * @returns {string} */
export function standInSummary(actions) {
  /** @type {string[]} */
  const parts = [];
  /** @type {string[]} */
  let plays = [];
  const flush = () => {
    if (plays.length) parts.push(t("standin.played", { cards: cardList(plays) }));
    plays = [];
  };
  for (const action of actions) {
    if (action.play !== undefined) {
      plays.push(action.play);
      if (action.call !== undefined) {
        flush();
        parts.push(t("standin.called", { card: cardInSentence(action.call) }));
      }
      continue;
    }
    flush();
    if (action.bid === "pass") parts.push(t("standin.passed"));
    else if (action.bid !== undefined) parts.push(t("standin.bid", { bid: String(action.bid) }));
    else if (action.discard !== undefined) parts.push(t("standin.discarded", { cards: cardList(action.discard) }));
  }
  flush();
  // (French sets a space before the semicolon too)
  return parts.length ? t("standin.summary", { moves: parts.join(t("standin.separator")) }) : "";
}

/** The panel: shown while the view has moves the person has not dismissed; `dismissed`
 * is the summary they dismissed last (a new absence's summary shows again).
 * @param {ActionJson[]} actions the view's `room.stood_in`
 * @param {string | null} dismissed */
export function renderStandIn(actions, dismissed) {
  const panel = byId("stood-in");
  const text = standInSummary(actions);
  if (!text || JSON.stringify(actions) === dismissed) {
    panel.hidden = true;
    panel.replaceChildren();
    return;
  }
  const close = el("button", "", t("standin.dismiss"));
  close.type = "button";
  close.dataset.action = "dismiss-stood-in";
  close.dataset.key = "dismiss-stood-in";
  const line = el("p", "", text);
  if (panel.hidden || panel.firstElementChild?.textContent !== text) {
    panel.replaceChildren(line, close);
  }
  panel.hidden = false;
}
