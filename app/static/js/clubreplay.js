// @ts-check
// A club match's replay on the club page (issue 38): the match's record as the club keeps
// it (GET /api/clubs/{club}/record, then POST /api/replay, as the replay page does with
// a file), so it works once the room is gone; where a player beat par most
// (parmarks.js); and, for a deal the person played, `Review my play`: the strong bot's
// review of their own decisions (POST /api/clubs/{club}/review, from the same record),
// shown under the replay with the better choices marked in it (review.js, replay.js).

import { ApiError, api, errorMessage } from "./net.js";
import { asPlayer, playerId } from "./player.js";
import { t } from "./i18n.js";
import { byId, el } from "./dom.js";
import { showReplay } from "./replay.js";
import { markBestVsPar } from "./parmarks.js";
import { reviewContent } from "./review.js";
import { ErrorCode } from "./protocol.js";

/** @typedef {import("./protocol.js").ClubMatch} ClubMatch */
/** @typedef {import("./protocol.js").ReviewFrame} ReviewFrame */

/** The listeners of the replay shown (its redraws in a new language): ended when another
 *  is shown.
 * @type {AbortController | null} */
let shownMarks = null;
/** The reviews asked on this page, by room, match and deal (null: asked, not come yet).
 * @type {Map<string, ReviewFrame | null>} */
const reviews = new Map();

/** Replay the match of button `b` (its `data-room`, `data-match`) in #replay-view.
 * @param {string} club
 * @param {HTMLElement} b
 * @param {() => ClubMatch | undefined} matchNow the match as the page has it now (par
 *   may come later: read at each drawing)
 * @param {(text: string) => void} showError */
export async function replayMatch(club, b, matchNow, showError) {
  /** @param {unknown} error */
  const onError = (error) => showError(errorMessage(error));
  const base = `/api/clubs/${encodeURIComponent(club)}`;
  const room = b.dataset.room ?? "";
  const match = b.dataset.match ?? "";
  const record = await asPlayer("GET", `${base}/record?room=${encodeURIComponent(room)}&match=${match}`);
  const view = byId("replay-view");
  /** @param {number | null} deal */
  const load = async (deal) => {
    const query = deal === null ? "" : `?deal=${deal}`;
    const steps = await api("POST", `/api/replay${query}`, record);
    const key = `${room}:${match}:${steps.deal}`;
    const draw = () => {
      view.hidden = false;
      showReplay(view, steps, { pickDeal: (d) => { load(d).catch(onError); },
        review: reviews.get(key) ?? null });
      decorate();
    };
    const decorate = () => {
      const m = matchNow();
      if (!m) return;
      markBestVsPar(view, m, steps.deal);
      const part = reviewPart(m, steps.deal, key, async () => {
        reviews.set(key, null);
        decorate();
        try {
          reviews.set(key, await asPlayer("POST", `${base}/review?room=${encodeURIComponent(room)}&match=${match}&deal=${steps.deal}`));
        } catch (error) {
          reviews.delete(key);
          // (the server's "not seated" is a table's "take a seat first": here, a bot
          // played the person's seat in that deal, before they took it)
          const notYours = error instanceof ApiError && error.code === ErrorCode.NOT_SEATED;
          if (notYours) showError(t("club.review_not_yours"));
          else onError(error);
        }
        draw();
        view.querySelector(".club-review")?.scrollIntoView({ block: "nearest" });
      });
      view.querySelector(".club-review")?.remove();
      if (part) view.append(part);
    };
    draw();
    shownMarks?.abort();
    shownMarks = new AbortController();
    // (after the replay's own redraw in the new language, registered before this)
    document.addEventListener("languagechange", decorate, { signal: shownMarks.signal });
  };
  await load(null);
  view.scrollIntoView({ block: "start" });
  const next = view.querySelector(".replay-nav button.primary");
  if (next instanceof HTMLElement) next.focus({ preventScroll: true });
}

/** Under the replay of deal `deal`: `Review my play` for a deal the person played, or
 *  their review (waiting, made, or failed); null for anyone else's deal.
 * @param {ClubMatch} m
 * @param {number} deal
 * @param {string} key
 * @param {() => Promise<void>} ask
 * @returns {HTMLElement | null} */
function reviewPart(m, deal, key, ask) {
  const me = playerId();
  const played = me !== null && m.seats.some((s) => s.player === me)
    && (m.deals || []).some((d) => d.deal === deal);
  if (!played) return null;
  const part = el("section", "club-review review");
  if (reviews.has(key)) {
    part.append(...reviewContent(reviews.get(key) ?? null));
    return part;
  }
  const button = el("button", "", t("review.button"));
  button.type = "button";
  button.addEventListener("click", () => {
    button.disabled = true;
    ask().catch(() => {});
  });
  part.append(button);
  return part;
}
