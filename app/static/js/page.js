// What every page shares: the language, the language picker and the four-colour deck.

import { applyTranslations, loadLanguage, pickLanguage, setUpLanguagePicker } from "./i18n.js";

const FOUR_COLOUR_KEY = "amerikaner.fourColour";

function setUpFourColour() {
  const box = document.getElementById("four-colour");
  const on = localStorage.getItem(FOUR_COLOUR_KEY) === "1";
  document.body.classList.toggle("four-colour", on);
  if (!box) return;
  box.checked = on;
  box.addEventListener("change", () => {
    localStorage.setItem(FOUR_COLOUR_KEY, box.checked ? "1" : "0");
    document.body.classList.toggle("four-colour", box.checked);
  });
}

export async function setUpPage() {
  await loadLanguage(pickLanguage());
  setUpLanguagePicker(document.getElementById("lang-select"));
  setUpFourColour();
  applyTranslations(document);
}
