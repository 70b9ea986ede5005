// @ts-check
// Sharing a room and keeping its match: the room's link (copied, or the phone's share
// sheet) and the game record as a file.

import { t } from "./i18n.js";
import { api, errorMessage, savedToken } from "./net.js";
import { flash, showError } from "./notices.js";

/** @param {string} code */
export function roomLink(code) {
  return `${location.origin}/r/${code}`;
}

/** @param {string} code */
export async function copyLink(code) {
  try {
    await navigator.clipboard.writeText(roomLink(code));
    flash("room-notice", t("room.link_copied"));
  } catch {
    flash("room-notice", t("room.copy_this", { url: roomLink(code) }));
  }
}

/** Download match `matchNumber`'s game record (docs/spec/GAME-RECORD.md) as a JSON file.
 * @param {string} code
 * @param {number} matchNumber */
export async function downloadRecord(code, matchNumber) {
  try {
    const record = await api("GET",
      `/api/rooms/${encodeURIComponent(code)}/record?match=${matchNumber}`, undefined,
      savedToken(code) ?? undefined);
    const blob = new Blob([JSON.stringify(record, null, 2)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = `amerikaner-${code}-${matchNumber}.json`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } catch (error) {
    showError(errorMessage(error));
  }
}
