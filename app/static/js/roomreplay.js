// @ts-check
// A finished deal of this room replayed in a dialog: opened from the score sheet (a deal
// of the match now, or of an earlier one), from the room's deal log or stored record
// (GET /api/rooms/{code}/replay, for the room's players).  Your review of that deal, if
// you asked for one, marks the strong bot's better choices (replay.js).  The dialog is
// modal, so it has a language picker of its own; a change of language redraws the step.

import { api, errorMessage, savedToken } from "./net.js";
import { showError } from "./notices.js";
import { byId } from "./dom.js";
import { setUpLanguagePicker } from "./i18n.js";
import { showReplay } from "./replay.js";
import { scoredDeal } from "./replaywords.js";

/** @typedef {import("./protocol.js").DealReplay} DealReplay */
/** @typedef {import("./protocol.js").ReviewFrame} ReviewFrame */

/**
 * @typedef {object} Which
 * @property {number} match the room's match number
 * @property {number | null} deal the deal's index in the match (void deals count)
 * @property {number | null} scored else: the `scored`-th deal played out (a score sheet's row)
 */

/**
 * @param {string} code
 * @param {number} match
 * @param {number | null} deal
 * @returns {Promise<DealReplay>} */
function fetchReplay(code, match, deal) {
  const query = deal === null ? `match=${match}` : `match=${match}&deal=${deal}`;
  return api("GET", `/api/rooms/${encodeURIComponent(code)}/replay?${query}`, undefined,
    savedToken(code) ?? undefined);
}

/** Open the replay of a deal of room `code` in the room's dialog.
 * @param {string} code
 * @param {Which} which
 * @param {(match: number, deal: number) => ReviewFrame | null} reviewOf */
export async function openReplay(code, which, reviewOf) {
  const dialog = byId("replay-dialog");
  try {
    let replay = await fetchReplay(code, which.match, which.deal);
    if (which.deal === null && which.scored !== null) {
      // a score sheet counts the deals played out; the record counts void deals too
      const deal = scoredDeal(replay.deals, which.scored);
      if (deal !== null && deal !== replay.deal) replay = await fetchReplay(code, which.match, deal);
    }
    showReplay(byId("replay-body"), replay, {
      review: reviewOf(which.match, replay.deal),
      pickDeal: (deal) => openReplay(code, { match: which.match, deal, scored: null }, reviewOf),
    });
    if (dialog instanceof HTMLDialogElement && !dialog.open) dialog.showModal();
    const next = dialog.querySelector(".replay-nav button.primary");
    if (next instanceof HTMLElement) next.focus();
  } catch (error) {
    showError(errorMessage(error));
  }
}

/** The dialog's Close button and its language picker (the page's is behind the dialog). */
export function setUpReplayDialog() {
  const dialog = byId("replay-dialog");
  setUpLanguagePicker(byId("replay-lang-select"));
  byId("replay-close").addEventListener("click", () => {
    if (dialog instanceof HTMLDialogElement) dialog.close();
  });
}
