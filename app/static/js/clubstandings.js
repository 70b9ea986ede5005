// @ts-check
// The club page's standings (issue 38; docs/clubs.md, "Standings"): a line per player of
// the season, with the points above par a deal once the server has par, and the bots'
// levels rated beside them. A table wider than a phone scrolls sideways in its box.

import { formatNumber, formatSigned, t } from "./i18n.js";
import { byId, el, simpleTable } from "./dom.js";
import { ratingText } from "./you.js";

/** @typedef {import("./protocol.js").ClubPage} ClubPage */
/** @typedef {import("./protocol.js").StandingsRow} StandingsRow */

/** One decimal, in the page's language: 1.5, "1,5".
 * @param {number} n */
function decimal(n) {
  return formatNumber(Math.round(n * 10) / 10);
}

/** @param {StandingsRow} row */
function aboveParCell(row) {
  // null: none of the player's deals has a par yet
  const above = /** @type {{ above_par_per_deal?: number | null }} */ (row).above_par_per_deal;
  return typeof above === "number" ? formatSigned(above) : "\u2013";
}

/** The season's standings in #club-standings, the bots' levels in #club-bots.
 * @param {ClubPage} page */
export function showStandings(page) {
  // Par: the points above par a deal, a column of its own.
  const withPar = page.standings.some((r) => "above_par_per_deal" in r);
  const headings = ["club.player", "club.matches_played", "club.wins", "club.deals",
    "club.points", "club.points_per_deal", "club.as_bidder", "club.as_partner",
    "club.amerikaner_bids", "club.rating"].map((k) => t(k));
  if (withPar) headings.push(t("club.above_par"));
  const rows = page.standings.map((r) => {
    const cells = [r.name, String(r.matches), String(r.wins), String(r.deals),
      String(r.points), decimal(r.points_per_deal),
      t("club.made_of", { made: r.bidder_made, n: r.bidder_deals }),
      t("club.made_of", { made: r.partner_made, n: r.partner_deals }),
      String(r.amerikaner_bids), ratingText(r.rating)];
    if (withPar) cells.push(aboveParCell(r));
    return cells;
  });
  const box = byId("club-standings");
  if (!rows.length) {
    box.replaceChildren(el("p", "hint", t("club.no_standings")));
  } else {
    const table = simpleTable(headings, rows, "club-table");
    table.setAttribute("aria-labelledby", "standings-heading");
    box.replaceChildren(table);
  }
  // A table wider than a phone scrolls sideways: its box must be reachable by keyboard
  // (a region of its own, named apart from the section's "Standings").
  if (rows.length) {
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", t("club.standings_scroll"));
  } else {
    box.removeAttribute("tabindex");
    box.removeAttribute("role");
    box.removeAttribute("aria-label");
  }
  byId("club-bots").textContent = page.bot_levels.length
    ? t("club.bot_levels", { levels: page.bot_levels.map((b) => t("club.bot_level_rating", {
      level: t(`club.level.${b.level}`), rating: ratingText(b.rating) })).join(", ") })
    : "";
}
