// @ts-check
// The club page's invite and the host's controls (issue 38): copy the invite link (any
// member), renew it, set the rules of the club's new tables, close the season and open
// the next (asked twice). The page (clubpage.js) runs these as its buttons' actions.

import { asPlayer } from "./player.js";
import { t } from "./i18n.js";
import { byId } from "./dom.js";

/** @typedef {import("./protocol.js").ClubPage} ClubPage */

/** The link that joins club `club` with invite `invite`.
 * @param {string} club
 * @param {string} invite */
export function inviteLink(club, invite) {
  return `${location.origin}/c/${encodeURIComponent(club)}?invite=${encodeURIComponent(invite)}`;
}

/** What the page shows of the invite and of the host's forms.
 * @param {string} club
 * @param {ClubPage} page */
export function showHostParts(club, page) {
  for (const node of document.querySelectorAll(".host-only")) {
    if (node instanceof HTMLElement) node.hidden = !page.you_are_host;
  }
  byId("club-invite", HTMLInputElement).value = inviteLink(club, page.invite);
  const rules = page.rules || {};
  byId("club-preset", HTMLSelectElement).value = String(rules.preset || "standard");
  byId("club-single-round", HTMLInputElement).checked = rules.match === "single_deal";
}

/** The preset menu's options in the page's language. */
export function presetLabels() {
  for (const option of byId("club-preset", HTMLSelectElement).options) {
    option.textContent = t(`preset.label.${option.value}`);
  }
}

/** @param {boolean} open */
function seasonQuestion(open) {
  byId("season-confirm").hidden = !open;
  const b = document.querySelector(open ? "button[data-action='next-season-confirm']" : "button[data-action='next-season']");
  if (b instanceof HTMLElement) b.focus();
}

async function copyInvite() {
  const link = byId("club-invite", HTMLInputElement).value;
  try {
    await navigator.clipboard.writeText(link);
    byId("club-invite-status").textContent = t("club.invite_copied");
  } catch {
    byId("club-invite").focus();
    byId("club-invite", HTMLInputElement).select();
    byId("club-invite-status").textContent = t("club.copy_this");
  }
}

/** The actions of the invite's and the host's buttons, by `data-action`.
 * @param {string} club
 * @param {() => Promise<void>} reload the page's club again (a new season)
 * @returns {Record<string, (b: HTMLElement) => Promise<void>>} */
export function hostActions(club, reload) {
  const base = `/api/clubs/${encodeURIComponent(club)}`;
  return {
    "copy-invite": copyInvite,
    "renew-invite": async () => {
      const answer = await asPlayer("POST", `${base}/invite`);
      byId("club-invite", HTMLInputElement).value = inviteLink(club, answer.invite);
      byId("club-invite-status").textContent = t("club.invite_renewed");
    },
    "next-season": async () => seasonQuestion(true),
    "next-season-cancel": async () => seasonQuestion(false),
    "next-season-confirm": async () => {
      await asPlayer("POST", `${base}/season`);
      byId("season-confirm").hidden = true;
      await reload();
    },
    "save-rules": async () => {
      /** @type {Record<string, string>} */
      const rules = { preset: byId("club-preset", HTMLSelectElement).value };
      if (byId("club-single-round", HTMLInputElement).checked) rules.match = "single_deal";
      await asPlayer("PATCH", base, { rules });
      byId("club-rules-status").textContent = t("club.rules_saved");
    },
  };
}
