"""Text hygiene of names and chat (app/text.py): examples from issue 9 and properties."""

from __future__ import annotations

import string
import unicodedata

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from app.text import (
    CHAT_MAX,
    JOINERS,
    MARKS_MAX,
    NAME_MAX,
    TextError,
    clean_chat,
    clean_name,
    clean_text,
    is_bot_name,
    name_key,
)

EMOJI = ["👩\u200d💻", "🏳️\u200d🌈", "👨\u200d👩\u200d👧\u200d👦", "❤️", "1️⃣", "👍🏽"]


@pytest.mark.parametrize("name", ["Ann", "Zoë", "José María", "می\u200cخواهم", "王小明",
                                  "Botany 4", "Robot", "Bot", *EMOJI])
def test_ordinary_names_and_emoji_joined_by_zwj_pass(name: str) -> None:
    assert clean_name(name) == unicodedata.normalize("NFC", name)


@pytest.mark.parametrize("bad", ["A\x00nn", "A\x1b[31mnn", "A\u202enn", "A\u2066nn",
                                 "A\u200bnn", "A\u2060nn", "A\ufeffnn", "A\u061cnn",
                                 "\u200dAnn", "Ann\u200c", "A\u200d\u200dnn", "A \u200dnn",
                                 "A\ud800nn", "A\U000e0041nn", "\u200b", " \t\n ",
                                 "x" + "\u0301" * (MARKS_MAX + 1)])
def test_control_format_bidi_and_lonely_joiners_are_refused_in_names_and_chat(
        bad: str) -> None:
    with pytest.raises(TextError) as name_err:
        clean_name(bad)
    assert name_err.value.code == "bad_name" and name_err.value.message
    if len(bad) <= CHAT_MAX:
        with pytest.raises(TextError) as chat_err:
            clean_chat(bad)
        assert chat_err.value.code == "bad_chat"


def test_whitespace_collapses_and_lengths_count_after_collapsing() -> None:
    assert clean_name("  Ann \t\n Lee\u00a0 ") == "Ann Lee"
    assert clean_name(" " * 50 + "x" * NAME_MAX + " " * 50) == "x" * NAME_MAX
    with pytest.raises(TextError):
        clean_name("x" * (NAME_MAX + 1))
    assert clean_chat("good\nluck") == "good luck"
    assert clean_chat("y" * CHAT_MAX) == "y" * CHAT_MAX
    with pytest.raises(TextError):
        clean_chat("y" * (CHAT_MAX + 1))
    assert clean_name("e\u0301") == "\u00e9"  # NFC


@pytest.mark.parametrize("name", ["Bot 4", "bot 4", "BOT4", "Bot-4", "B o t  4", "Bot #04",
                                  "Robot 4", "robot 2", "ＢＯＴ ４", "Bot\u200d 3", "Bot 11"])
def test_the_bots_form_in_any_language_is_refused(name: str) -> None:
    assert is_bot_name(name)
    if name.isprintable():
        with pytest.raises(TextError, match="bots"):
            clean_name(name)


@pytest.mark.parametrize("name", ["Bot", "Robot", "Botany 4", "4 Bot", "Abbot 4", "Ann 4"])
def test_names_near_the_bots_form_are_not_the_bots_form(name: str) -> None:
    assert not is_bot_name(name)


@given(st.sampled_from(["Bot", "Robot"]), st.integers(0, 10**6), st.text(" -_#.", max_size=3),
       st.data())
def test_any_spelling_of_a_bot_seat_name_is_the_bots_form(
        word: str, n: int, sep: str, data: st.DataObject) -> None:
    cased = "".join(ch.upper() if data.draw(st.booleans()) else ch.lower() for ch in word)
    assert is_bot_name(f"{cased}{sep}{n}")


@given(st.text(max_size=60))
@example("A\u202eB")
@example("👩\u200d💻")
def test_clean_text_is_idempotent_and_its_output_is_clean(raw: str) -> None:
    try:
        text = clean_text(raw, "text", 40, "bad")
    except TextError as exc:
        assert exc.code == "bad" and exc.message
        return
    assert 1 <= len(text) <= 40
    assert text == unicodedata.normalize("NFC", text) == text.strip()
    assert "  " not in text and all(not ch.isspace() or ch == " " for ch in text)
    for ch in text:
        assert ch in JOINERS or unicodedata.category(ch) not in ("Cc", "Cf", "Cs")
    assert clean_text(text, "text", 40, "bad") == text


@given(st.text(st.characters(categories=["L", "N"]), min_size=1, max_size=10),
       st.sampled_from([c for c in map(chr, range(0x110000))
                        if unicodedata.category(c) in ("Cc", "Cf") and c not in JOINERS
                        and not c.isspace()]),
       st.integers(0, 10))
def test_one_control_or_format_character_anywhere_is_refused(
        base: str, bad: str, at: int) -> None:
    at = min(at, len(base))
    with pytest.raises(TextError):
        clean_chat(base[:at] + bad + base[at:])


@given(st.text(string.ascii_letters + string.digits, min_size=2, max_size=10))
def test_names_differing_in_case_width_or_joiners_have_one_key(name: str) -> None:
    wide = "".join(chr(ord(ch) + 0xFEE0) for ch in name)  # fullwidth forms
    variants = [name.upper(), name.lower(), wide, name[0] + "\u200d" + name[1:],
                f"  {name} "]
    assert {name_key(v) for v in variants} == {name.lower()}
