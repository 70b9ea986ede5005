"""Text hygiene shared by player names and chat, by Unicode categories (not a hand list).

Every text is NFC-normalised and may not hold control characters (category Cc), format
characters (Cf: among them every bidi embedding, override and isolate, the invisible
marks and the tag characters) or surrogates (Cs).  The two joiners are the exception,
because emoji sequences (👩‍💻, 🏳️‍🌈) and some scripts (Persian, the Indic scripts) need
them: a ZWJ or ZWNJ must sit between two visible characters.  Variation selectors are
marks (Mn), so emoji presentation (❤️) passes (the tag characters of subdivision flags
such as Scotland's are Cf and do not: they can carry hidden text); a run of more than
``MARKS_MAX`` marks on one character (stacked "zalgo" text) does not.  Whitespace of any
kind (tabs, new lines, no-break spaces) becomes one space, and the ends are trimmed.

- ``clean_name(raw)``: a name of 1..``NAME_MAX`` characters;
- ``clean_chat(raw)``: a chat line of 1..``CHAT_MAX`` characters;
- ``name_key(name)``: what two names are compared by (``"ANN"``, ``"Ann"`` and
  ``"A\u200dnn"`` are the same name), for names unique within a room;
- ``is_bot_name(name)``: the bots' form in any of the client's languages ("Bot 4",
  "bot4", "Robot 4", "ＢＯＴ ４"), which a person may not take.

Refusals are ``TextError`` (a ``ValueError``) with a stable ``code`` and a message a
player understands.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from pathlib import Path

NAME_MAX = 32
CHAT_MAX = 200
MARKS_MAX = 4            # combining marks in a row on one character
ZWJ, ZWNJ = "\u200d", "\u200c"
JOINERS = frozenset((ZWJ, ZWNJ))
_REFUSED_CATEGORIES = frozenset(("Cc", "Cf", "Cs"))
_VISIBLE_CATEGORIES = ("L", "N", "S", "P")  # letters, numbers, symbols, punctuation
I18N_DIR = Path(__file__).resolve().parent / "static" / "i18n"
SERVER_BOT_FORM = "Bot {n}"  # the name the server gives a bot's seat (records.py, Seat)


class TextError(ValueError):
    """Text a player sent that cannot be used; ``code`` is the wire code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def clean_text(raw: str, what: str, max_chars: int, code: str) -> str:
    """``raw`` normalised (module docstring) with 1..``max_chars`` characters."""
    text = " ".join(unicodedata.normalize("NFC", raw).split())
    if not text:
        raise TextError(code, f"{what} cannot be empty")
    if len(text) > max_chars:
        raise TextError(code, f"{what} may be at most {max_chars} characters")
    problem = _problem(text)
    if problem is not None:
        raise TextError(code, f"{what} cannot hold {problem}")
    return text


def clean_name(raw: str) -> str:
    """A player's name (``bad_name``); whether it is free is ``name_key``'s business."""
    name = clean_text(raw, "a name", NAME_MAX, "bad_name")
    if is_bot_name(name):
        raise TextError("bad_name", "a name like “Bot 4” is kept for the bots: choose another")
    return name


def clean_chat(raw: str) -> str:
    """A chat line (``bad_chat``)."""
    return clean_text(raw, "a chat line", CHAT_MAX, "bad_chat")


def _problem(text: str) -> str | None:
    """What is wrong with already NFC, whitespace-collapsed ``text``, or ``None``."""
    marks = 0
    visible = False
    for i, ch in enumerate(text):
        cat = unicodedata.category(ch)
        if ch in JOINERS:
            before = text[i - 1] if i else " "
            after = text[i + 1] if i + 1 < len(text) else " "
            if before.isspace() or after.isspace() or before in JOINERS or after in JOINERS:
                return "a joiner (ZWJ, ZWNJ) that joins nothing"
            marks = 0
            continue
        if cat in _REFUSED_CATEGORIES:
            return f"control or invisible characters (U+{ord(ch):04X})"
        if cat[0] == "M":
            marks += 1
            if marks > MARKS_MAX:
                return f"more than {MARKS_MAX} accents on one character"
            continue
        marks = 0
        visible = visible or cat[0] in _VISIBLE_CATEGORIES
    return None if visible else "only invisible characters"


def name_key(name: str) -> str:
    """What names are compared by: compatibility forms folded (``ＡＮＮ`` is ``ANN``), case
    folded, joiners and marks that change nothing visible (variation selectors) dropped,
    whitespace collapsed."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    kept = "".join(ch for ch in folded if ch not in JOINERS and not _is_variation(ch))
    return " ".join(kept.split())


def _is_variation(ch: str) -> bool:
    return "VARIATION SELECTOR" in unicodedata.name(ch, "")


def is_bot_name(name: str) -> bool:
    """Whether ``name`` reads as a bot's seat name in any language of the client
    ("Bot 4", "bot-4", "Robot 04"), compared by ``name_key`` and letters and digits only."""
    squeezed = "".join(ch for ch in name_key(name) if ch.isalnum())
    return any(form.fullmatch(squeezed) for form in _bot_forms())


@functools.cache
def _bot_forms() -> tuple[re.Pattern[str], ...]:
    """The bots' name forms as patterns over ``is_bot_name``'s squeezed text: the server's
    own and every translation's ``seat.bot`` ("Robot {n}")."""
    templates = {SERVER_BOT_FORM}
    for path in sorted(I18N_DIR.glob("*.json")):
        try:
            template = json.loads(path.read_text(encoding="utf-8")).get("seat.bot")
        except (OSError, ValueError):
            continue  # a broken translation file is the client's problem, not a name's
        if isinstance(template, str) and "{n}" in template:
            templates.add(template)
    forms = []
    for template in sorted(templates):
        before, _, after = template.partition("{n}")
        squeeze = ["".join(ch for ch in name_key(part) if ch.isalnum())
                   for part in (before, after)]
        forms.append(re.compile(re.escape(squeeze[0]) + r"\d+" + re.escape(squeeze[1])))
    return tuple(forms)
