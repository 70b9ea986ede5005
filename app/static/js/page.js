// @ts-check
// What every page shares: the language, the language picker and the four-colour deck.

import { applyTranslations, loadLanguage, pickLanguage, setUpLanguagePicker } from "./i18n.js";

const FOUR_COLOUR_KEY = "amerikaner.fourColour";

function setUpFourColour() {
  const box = document.getElementById("four-colour");
  const on = localStorage.getItem(FOUR_COLOUR_KEY) === "1";
  document.body.classList.toggle("four-colour", on);
  if (!(box instanceof HTMLInputElement)) return;
  box.checked = on;
  box.addEventListener("change", () => {
    localStorage.setItem(FOUR_COLOUR_KEY, box.checked ? "1" : "0");
    document.body.classList.toggle("four-colour", box.checked);
  });
}

/** Phones: the top bar's settings fold into a menu button (always open on wide screens). */
function setUpMenu() {
  const button = document.getElementById("menu-button");
  if (!button) return;
  const bar = button.closest(".topbar");
  if (!bar) return;
  /** @param {boolean} open */
  const toggle = (open) => {
    bar.classList.toggle("menu-open", open);
    button.setAttribute("aria-expanded", open ? "true" : "false");
  };
  button.addEventListener("click", () => toggle(!bar.classList.contains("menu-open")));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && bar.classList.contains("menu-open")) {
      toggle(false);
      button.focus();
    }
  });
}

export async function setUpPage() {
  setUpMenu();
  await loadLanguage(pickLanguage());
  setUpLanguagePicker(document.getElementById("lang-select"));
  setUpFourColour();
  applyTranslations(document);
}
