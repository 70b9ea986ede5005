"""The page's words from the client's own catalogues (app/static/i18n/<code>.json), so that
a browser test finds a control by its accessible name in any of the three languages, and
expects a sentence as the page writes it: ``Words("nb").t("chat.system.new_match",
name="Ann")``, or as a pattern when a part of it varies (``.pattern``)."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

CATALOGUES = Path(__file__).resolve().parents[2] / "app" / "static" / "i18n"
LANGUAGES = ("en", "nb", "fr")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# A number as format.js writes it (one decimal at most): "10.9" in English, "10,9" in
# Norwegian and French.
DECIMAL = {"en": ".", "nb": ",", "fr": ","}


@cache
def catalogue(code: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((CATALOGUES / f"{code}.json").read_text(encoding="utf-8"))
    return data


def plural_category(n: int, code: str) -> str:
    """Intl.PluralRules' category of a whole number: French counts 0 and 1 as "one"."""
    if code == "fr":
        return "one" if n in (0, 1) else "other"
    return "one" if n == 1 else "other"


class Words:
    """The texts of one language, filled as i18n.js's ``t`` and ``tn`` fill them."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.texts = catalogue(code)
        self.english = catalogue("en")

    def raw(self, key: str) -> str:
        return self.texts.get(key) or self.english[key]

    def t(self, key: str, **params: object) -> str:
        text = self.raw(key)
        for name, value in params.items():
            text = text.replace(f"{{{name}}}", str(value))
        return text

    def tn(self, key: str, count: int, **params: object) -> str:
        form = f"{key}.{plural_category(count, self.code)}"
        return self.t(form if form in self.texts else key, **params)

    def number_pattern(self) -> str:
        """A figure with at most one decimal, in this language's way."""
        return r"\d+(?:" + re.escape(DECIMAL[self.code]) + r"\d)?"

    def forms(self, key: str, counted: bool) -> list[str]:
        """The texts of ``key``; ``counted``: with its plural forms (``key.one``...)."""
        forms = [self.raw(key)]
        if counted:
            forms += [v for k, v in self.texts.items() if k.startswith(f"{key}.")
                      and k.rsplit(".", 1)[1] in ("zero", "one", "two", "few", "many")]
        return list(dict.fromkeys(forms))

    def pattern(self, key: str, *, counted: bool = False, whole: bool = True,
                **parts: str) -> re.Pattern[str]:
        """The text of ``key`` as a pattern Playwright can hand to the page (no named
        groups): each placeholder given in ``parts`` becomes that regular expression,
        the others any text; ``counted``: any of the key's plural forms; ``whole``: the
        pattern is the whole text (else it is found inside a text)."""
        body = "|".join(f"(?:{_form_pattern(form, parts, named=False)})"
                        for form in self.forms(key, counted))
        return re.compile(f"^(?:{body})$" if whole else body)

    def fields(self, key: str, text: str, *, counted: bool = False,
               **parts: str) -> dict[str, str] | None:
        """The placeholders' texts of ``text`` read as ``key`` (None: it is not)."""
        for form in self.forms(key, counted):
            match = re.fullmatch(_form_pattern(form, parts, named=True), text)
            if match:
                return match.groupdict()
        return None


def _escape(text: str) -> str:
    # (Python escapes spaces too, which a JavaScript RegExp reads the same: left plain)
    return re.escape(text).replace("\\ ", " ")


def _form_pattern(form: str, parts: dict[str, str], *, named: bool) -> str:
    out: list[str] = []
    seen: set[str] = set()
    at = 0
    for match in PLACEHOLDER.finditer(form):
        out.append(_escape(form[at:match.start()]))
        name = match.group(1)
        inner = parts.get(name, ".+?")
        out.append(f"(?P<{name}>{inner})" if named and name not in seen else f"(?:{inner})")
        seen.add(name)
        at = match.end()
    out.append(_escape(form[at:]))
    return "".join(out)


def of(page: Any) -> Words:
    """The words of the language ``page`` is shown in now (its ``<html lang>``)."""
    code = str(page.evaluate("document.documentElement.lang") or "en")
    return Words(code if code in LANGUAGES else "en")
