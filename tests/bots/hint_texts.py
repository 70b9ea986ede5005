"""A hint's text in the client's words, for the tests: the bots give a key and its
parameters (app/bots/hints.py) and hold no texts, so the texts are read here, from the
client's catalogues, where a test checks that every key the bots give has one."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from app.bots.hints import Hint

I18N_DIR = Path(__file__).resolve().parents[2] / "app" / "static" / "i18n"
LANGS = ("en", "nb", "fr")


@cache
def hint_texts() -> dict[str, dict[str, str]]:
    """{"en": {key: text}, "nb": ..., "fr": ...}: the hint and bot texts of the client's
    language files (one copy of every text: the client's)."""
    out: dict[str, dict[str, str]] = {}
    for lang in LANGS:
        texts = json.loads((I18N_DIR / f"{lang}.json").read_text(encoding="utf-8"))
        out[lang] = {k: v for k, v in texts.items() if k.startswith(("hint.", "bot."))}
    return out


def hint_text(hint: Hint, lang: str = "en") -> str:
    """The hint in ``lang`` with its parameters filled in as they are (ids, letters); a
    client renders card ids and suit letters in its own words."""
    texts = hint_texts().get(lang) or hint_texts()["en"]
    params = {k: (", ".join(v) if isinstance(v, list) else v) for k, v in hint.params.items()}
    return texts[hint.key].format_map(_Missing(params))


class _Missing(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"
