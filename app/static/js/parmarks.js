// @ts-check
// Where each player of a club match beat par most (issue 38; docs/clubs.md, "Par"),
// marked in that match's replay on the club page: a line under the replay's heading
// ("Ann beat par most here: +3.2") for the deal shown, and the deal list's options.
// `best_vs_par` gives, by seat, the deal (its index in the match's record, the replay's
// deal) where that seat's player beat par most; `deals` has the points and the par.

import { formatSigned, t } from "./i18n.js";
import { el } from "./dom.js";

/** @typedef {import("./protocol.js").ClubMatch} ClubMatch */

/** The record's deal index -> who beat par most there, with by how much.
 * @param {ClubMatch} m
 * @returns {Map<number, { name: string, diff: number }[]>} */
export function bestVsPar(m) {
  /** @type {Map<number, { name: string, diff: number }[]>} */
  const out = new Map();
  (m.best_vs_par || []).forEach((deal, seat) => {
    const found = deal === null ? undefined : (m.deals || []).find((d) => d.deal === deal);
    if (!found || !found.par) return;
    const diff = (found.points[seat] ?? 0) - (found.par[seat] ?? 0);
    const name = m.seats[seat]?.name ?? "";
    out.set(found.deal, [...(out.get(found.deal) || []), { name, diff }]);
  });
  return out;
}

/** Mark the replay shown in `view` (showReplay's), at the record's deal `deal`.
 * @param {HTMLElement} view
 * @param {ClubMatch} m
 * @param {number} deal */
export function markBestVsPar(view, m, deal) {
  const best = bestVsPar(m);
  for (const old of view.querySelectorAll(".replay-par-best")) old.remove();
  const lines = bestHere(best, deal).map((text) => el("p", "replay-par-best", text));
  view.querySelector("#replay-title")?.after(...lines);
  for (const option of view.querySelectorAll(".replay-pick option")) {
    const here = best.get(Number(option.getAttribute("value")));
    if (here) {
      option.textContent = t("club.par_best_option", { deal: option.textContent ?? "",
        names: here.map((b) => b.name).join(", ") });
    }
  }
}

/** The lines of the record's deal `deal`: "Ann beat par most here: +3.2".
 * @param {Map<number, { name: string, diff: number }[]>} best bestVsPar's answer
 * @param {number} deal */
export function bestHere(best, deal) {
  return (best.get(deal) || []).map((b) =>
    t("club.par_best_here", { name: b.name, diff: formatSigned(b.diff) }));
}
