// @ts-check
// The replay page (/replay): a game record file, picked or dropped on the page, is sent to
// the server, which replays it with the engine (POST /api/replay, as `amerikaner replay`
// checks it) and answers the deal's steps; replay.js shows them.  The file stays in the
// page: choosing another deal of it sends it again.

import { currentLanguage, t } from "./i18n.js";
import { ApiError, errorMessage } from "./net.js";
import { setUpPage } from "./page.js";
import { byId } from "./dom.js";
import { ErrorCode, LIMITS } from "./protocol.js";
import { showReplay } from "./replay.js";
import { brokenAt } from "./replaywords.js";

/** @typedef {import("./protocol.js").DealReplay} DealReplay */

/** @type {ArrayBuffer | null} */
let record = null;

/** @param {string} text */
function showError(text) {
  byId("replay-error").textContent = text;
}

/** Deal `deal` of the record held (the server's first played deal when null).
 * @param {number | null} deal */
async function load(deal) {
  if (!record) return;
  const status = byId("replay-status");
  status.textContent = t("replay.loading");
  showError("");
  try {
    const query = deal === null ? "" : `?deal=${deal}`;
    const response = await fetch(`/api/replay${query}`, {
      method: "POST", body: record,
      headers: { "Content-Type": "application/json", Accept: "application/json" },
    });
    const data = await response.json().catch(() => null);
    if (!response.ok) {
      const error = (data && data.error) || {};
      throw new ApiError(response.status, error.code || `http_${response.status}`,
        error.message || response.statusText, error.params || {});
    }
    show(/** @type {DealReplay} */ (data));
  } catch (error) {
    let text = errorMessage(error);
    // where the record breaks a rule: the server's own words say it in English; another
    // language says where from the error's fields, never with the English inside
    if (error instanceof ApiError && error.code === ErrorCode.BAD_RECORD && currentLanguage() !== "en") {
      const where = brokenAt(error.params);
      if (where) text = `${text} ${where}`;
    }
    showError(text);
  } finally {
    status.textContent = "";
  }
}

/** @param {DealReplay} replay */
function show(replay) {
  const view = byId("replay-view");
  view.hidden = false;
  showReplay(view, replay, { pickDeal: (deal) => load(deal) });
  // the replay, not the file's form above it, fills the screen: on a phone the table
  // would be a screen below
  view.scrollIntoView({ block: "start" });
  const next = view.querySelector(".replay-nav button.primary");
  if (next instanceof HTMLElement) next.focus({ preventScroll: true });
}

/** @param {File | null | undefined} file */
async function take(file) {
  if (!file) return;
  if (file.size > LIMITS.RECORD_BYTES_MAX) {
    showError(t("replay.too_large", { mb: Math.round(LIMITS.RECORD_BYTES_MAX / (1024 * 1024)) }));
    return;
  }
  record = await file.arrayBuffer();
  await load(null);
}

function init() {
  // The file is taken as soon as it is chosen or dropped, and read once the page's words
  // are loaded: a listener added after that wait would miss a file chosen in the meantime.
  const ready = setUpPage();
  /** @param {File | null | undefined} file */
  const taken = (file) => ready.then(() => take(file));
  const input = byId("record-file", HTMLInputElement);
  input.addEventListener("change", () => taken(input.files && input.files[0]));
  const zone = byId("drop-zone");
  // The whole page takes the drop: a file dropped beside the zone must not be opened by
  // the browser in place of the page.
  document.addEventListener("dragover", (event) => {
    event.preventDefault();
    zone.classList.add("dragging");
  });
  document.addEventListener("dragleave", (event) => {
    if (event.target === document.documentElement || event.target === zone) zone.classList.remove("dragging");
  });
  document.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("dragging");
    taken(event.dataTransfer && event.dataTransfer.files[0]);
  });
}

init();
