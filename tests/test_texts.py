"""What players read, held to the engine and to the sources' words: the three language
files have the same keys and the same placeholders per key; the figures in rule texts are
placeholders the client fills from the engine's resolved rules, never typed in; every
term of docs/glossary.md is used in its language and its "never" words are not; the
glossary's words are the cited sources' own; the rules page's per-preset table of sources
and conventions covers every preset and has a text for each entry."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from option_tables import RULE_OPTIONS
from shared_helpers import catalogue

from app.rooms.server.rules_info import OPTION_CONVENTIONS, PROVENANCE
from app.rules import RuleSet
from app.rules.ruleset import PRESETS

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "docs" / "glossary.md"
# The source documents sit next to the repository (../shared/seeds), as docs/spec/RULES.md says;
# in a checkout without them the check against the sources is skipped.
SEEDS = ROOT.parent / "shared" / "seeds"
LANGUAGES = ("en", "nb", "fr")
PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")
# Texts that state rules: any figure in them must come from the engine.
RULE_TEXTS = re.compile(
    r"^(opt\.[a-z_]+\.help|preset\.about\.[a-z]+|rules\.conv\.[a-z_]+|rules\.quick\.[a-z_]+)$")
# The worked example's facts are the engine's deal (rules_example.py), filled in by name.
EXAMPLE_FACTS = {"preset", "players", "names", "dealer", "first", "name", "bid", "bidder",
                 "kitty", "cards", "discards", "lead", "suit", "call", "partner", "n", "plays",
                 "winner", "side", "total", "points"}


def texts(lang: str) -> dict[str, str]:
    return catalogue(lang)


@dataclass(frozen=True)
class Term:
    lang: str
    term: str
    words: tuple[str, ...]
    sources: tuple[str, ...]
    never: tuple[str, ...]


def _cells(cell: str) -> tuple[str, ...]:
    return tuple(w.strip() for w in cell.split(",") if w.strip())


def glossary() -> list[Term]:
    """The rows of docs/glossary.md's three language tables."""
    terms: list[Term] = []
    lang = None
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"^## .*\((en|nb|fr)\)$", line)
        if heading:
            lang = heading.group(1)
            continue
        if lang is None or not line.startswith("|") or line.startswith(("| term", "|---")):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        assert len(cells) == 4, f"glossary row needs 4 cells: {line}"
        term, words, sources, never = cells
        terms.append(Term(lang, term, _cells(words), _cells(sources), _cells(never)))
    return terms


def word_pattern(word: str) -> re.Pattern[str]:
    """A whole word or phrase, any case; ``*`` is any ending."""
    body = re.escape(word.rstrip("*")) + (r"\w*" if word.endswith("*") else "")
    return re.compile(rf"(?<!\w){body}(?!\w)", re.IGNORECASE)


def test_same_keys_and_placeholders_in_every_language() -> None:
    english = texts("en")
    for lang in LANGUAGES[1:]:
        other = texts(lang)
        assert set(other) == set(english), f"{lang}: {set(english) ^ set(other)}"
        for key, text in english.items():
            assert set(PLACEHOLDER.findall(other[key])) == set(PLACEHOLDER.findall(text)), (
                f"{lang} {key}: {other[key]!r} has other placeholders than {text!r}")


def test_every_rule_option_and_named_value_has_its_texts() -> None:
    """The lobby and the rules page show each option of the engine (tests/option_tables.py)
    by its name and help, and each named value by its label (lobby.js ``optionName``,
    ``optionHelp``, ``valueLabel``), falling back to the bare identifier: a new option
    or value needs its texts (the same keys in every language: the test above)."""
    english = texts("en")
    missing = [key for option in RULE_OPTIONS
               for key in (f"opt.{option}.name", f"opt.{option}.help") if key not in english]
    missing += [f"value.{option}.{value}" for option, values in RULE_OPTIONS.items()
                for value in values if isinstance(value, str)
                and not value.startswith("deals:")  # value.match.deals, with its number
                and f"value.{option}.{value}" not in english]
    assert missing == [], f"app/static/i18n/*.json need {missing}"


def test_rule_texts_take_their_figures_from_the_engine() -> None:
    """A figure the engine works out (hand size, bids, kitty, target...) is a placeholder
    named after a key of RuleSet.resolved(), which the client fills; no digit is typed."""
    engine_keys = set(RuleSet().resolved())
    for lang in LANGUAGES:
        for key, text in texts(lang).items():
            if not (RULE_TEXTS.match(key) or key.startswith("rules.s")):
                continue
            assert set(PLACEHOLDER.findall(text)) <= engine_keys, f"{lang} {key}"
            if RULE_TEXTS.match(key):
                assert not re.search(r"\d", PLACEHOLDER.sub("", text)), f"{lang} {key}: {text}"


def test_the_worked_example_types_no_figure() -> None:
    """Every number in the example (bids, tricks, points, the kitty) comes from the deal
    the server played or from the preset's resolved rules."""
    for lang in LANGUAGES:
        example = {k: v for k, v in texts(lang).items() if k.startswith("rules.example.")}
        assert len(example) >= 20
        for key, text in example.items():
            assert set(PLACEHOLDER.findall(text)) <= EXAMPLE_FACTS, f"{lang} {key}"
            assert not re.search(r"\d", PLACEHOLDER.sub("", text)), f"{lang} {key}: {text}"


def test_the_glossary_covers_the_same_terms_in_each_language() -> None:
    terms = glossary()
    by_lang = {lang: [t.term for t in terms if t.lang == lang] for lang in LANGUAGES}
    assert len(by_lang["en"]) >= 20
    assert by_lang["nb"] == by_lang["en"] == by_lang["fr"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_glossary_term_is_used_and_its_rivals_are_not(lang: str) -> None:
    # A placeholder's name ({partner}) is not a word the player reads.
    values = "\n".join(PLACEHOLDER.sub("", text) for text in texts(lang).values())
    for term in (t for t in glossary() if t.lang == lang):
        assert any(word_pattern(w).search(values) for w in term.words), (
            f"{lang}: none of {term.words} ({term.term}) is used")
        rivals = [m.group(0) for w in term.never for m in word_pattern(w).finditer(values)]
        assert rivals == [], f"{lang}: {rivals} where the glossary says {term.words[0]!r}"


def test_the_glossary_check_catches_a_rival_word() -> None:
    call = next(t for t in glossary() if t.lang == "nb" and t.term == "call (a card)")
    assert any(word_pattern(w).search("Kall {card}") for w in call.never)
    assert not any(word_pattern(w).search("Rop {card}") for w in call.never)
    trick = next(t for t in glossary() if t.lang == "fr" and t.term == "trick")
    assert any(word_pattern(w).search("Dernière levée") for w in trick.never)


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the source documents are not next to the repo")
def test_glossary_words_are_the_cited_sources_words() -> None:
    seeds = {p.name[:3]: p.read_text(encoding="utf-8") for p in SEEDS.glob("*.txt")}
    for term in glossary():
        for source in term.sources:
            assert any(word_pattern(w).search(seeds[source]) for w in term.words), (
                f"{term.lang} {term.term}: none of {term.words} is in source {source}")


def test_every_preset_says_its_source_and_conventions() -> None:
    english = texts("en")
    assert set(PROVENANCE) == set(PRESETS)
    for preset, info in PROVENANCE.items():
        assert info["sources"], preset
        for source in info["sources"]:
            assert f"rules.source.{source}" in english
        for convention in info["conventions"]:
            assert f"rules.conv.{convention}" in english, (preset, convention)
    for option, conventions in OPTION_CONVENTIONS.items():
        assert option in RuleSet().resolved()
        for convention in conventions:
            assert f"rules.conv.{convention}" in english
