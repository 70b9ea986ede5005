"""The rules text sentence by sentence against docs/spec/RULES.md (issue 39's fourteen
faults), in English, Norwegian and French: what each catalogue must say, what it must no
longer say, and the engine facts those sentences state."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from shared_helpers import catalogue

from app.rules import RuleSet

LANGUAGES = ("en", "nb", "fr")


def text(lang: str, key: str) -> str:
    return catalogue(lang)[key]


# Per language: (key, words it must contain), one row per fault.
MUST_SAY: dict[str, list[tuple[str, str]]] = {
    "en": [
        # RULES.md 8.1: overtaking is never required (winning can be: the only legal card).
        ("rules.s6.body", "You never have to play higher."),
        # 1: the kitty is four cards, whatever the twos do.
        ("rules.s2.body", "With a kitty, four cards are set aside face down"),
        ("rules.s2.body", "three with five players and a kitty"),
        # 3.3: who deals after an all-pass.
        ("rules.s3.body", "dealt again by the same dealer, or by the next one on the left"),
        # 4.1: clockwise, skipping those who passed.
        ("rules.s3.body", "the turn goes clockwise, skipping those who have passed"),
        # 4.2: Amerikaner is an option.
        ("rules.s3.body", "Where the rules allow the Amerikaner bid"),
        # 5.1 show_kitty and 8.3 led_two_wins.
        ("rules.s4.body", "the kitty is first turned face up for everyone"),
        ("rules.s6.body", "a two that is led wins its trick whatever follows"),
        # 6.4: the discard exception is for numeric contracts only.
        ("opt.kitty.help", "for a numeric contract only"),
        # 9: the kitty's trick counts for numeric contracts (scoring.deal_points).
        ("opt.kitty_trick.help", "on a numeric contract, not an Amerikaner"),
        # 4.5: who leads the minus round.
        ("opt.all_pass.help", "the player left of the dealer leads"),
        ("opt.all_pass.help", "every trick costs its winner a point"),
        # 6.3: the called card is forced in trick 1.
        ("rules.quick.call", "must play it to the first trick"),
    ],
    "nb": [
        ("rules.s6.body", "Du trenger aldri å spille et høyere kort."),
        ("rules.s2.body", "Med kitty legges fire kort i midten"),
        ("rules.s2.body", "tre med fem spillere og kitty"),
        ("rules.s3.body",
         "kortene deles ut på nytt av den samme som delte ut, eller av neste til venstre"),
        ("rules.s3.body", "med klokka, og de som har passet, hoppes over"),
        ("rules.s3.body", "Tillater reglene Amerikaner"),
        ("rules.s4.body", "snus kittyen først med bildet opp"),
        ("rules.s6.body", "vinner en toer som spilles ut, stikket uansett"),
        ("opt.kitty.help", "bare ved tallbud"),
        ("opt.kitty_trick.help", "ved tallbud, ikke ved Amerikaner"),
        ("opt.all_pass.help", "den til venstre for den som delte ut, spiller ut"),
        ("opt.all_pass.help", "den som tar et stikk, får minus ett poeng"),
        ("rules.quick.call", "må spille det i første stikk"),
        # The minus round named, and the trick's winner losing the point.
        ("opt.all_pass.help", "minusrunde"),
        ("value.all_pass.minus_round", "minusrunde"),
        ("contract.minus_round", "Minusrunde: den som tar et stikk, får minus ett poeng"),
        ("result.minus_round", "Minusrunde: den som tok et stikk, fikk minus ett poeng"),
        ("review.phase.auction", "Budgivning"),
    ],
    "fr": [
        ("rules.s6.body", "Monter n'est pas obligatoire."),
        ("rules.s2.body", "Avec un kitty, quatre cartes sont mises de côté"),
        ("rules.s2.body", "trois à cinq joueurs avec un kitty"),
        ("rules.s3.body", "on redistribue, même donneur ou le suivant à gauche"),
        ("rules.s3.body", "dans le sens des aiguilles d'une montre, en sautant ceux qui ont passé"),
        ("rules.s3.body", "Si les règles permettent l'enchère Amerikaner"),
        ("rules.s4.body", "le kitty est d'abord retourné face visible pour tous"),
        ("rules.s6.body", "un deux entamé gagne le pli quoi qu'on joue ensuite"),
        ("opt.kitty.help", "pour un contrat numérique seulement"),
        ("opt.kitty_trick.help", "sur un contrat numérique, pas sur un Amerikaner"),
        ("opt.all_pass.help", "le voisin de gauche du donneur entame"),
        ("opt.all_pass.help", "chaque pli coûte un point à son gagnant"),
        ("rules.quick.call", "qui doit la jouer au premier pli"),
    ],
}
# What the faulty sentences said.
MUST_NOT_SAY: dict[str, list[tuple[str, str]]] = {
    "en": [("rules.s6.body", "never have to win the trick"), ("rules.s2.body", "left over"),
           ("rules.s3.body", "it ends at once when someone bids Amerikaner")],
    "nb": [("rules.s6.body", "aldri å ta stikket"), ("rules.s2.body", "til overs"),
           ("value.all_pass.minus_round", "uten trumf"), ("contract.minus_round", "Alle passet"),
           ("result.minus_round", "Alle passet"), ("review.phase.auction", "Budrunden")],
    "fr": [("rules.s2.body", "les cartes restantes"),
           ("rules.s3.body", "elles s'arrêtent aussitôt qu'un joueur annonce Amerikaner")],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_text_says_what_the_rules_are(lang: str) -> None:
    missing = [(key, words) for key, words in MUST_SAY[lang] if words not in text(lang, key)]
    assert not missing, missing


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_faulty_sentences_are_gone(lang: str) -> None:
    left = [(key, words) for key, words in MUST_NOT_SAY[lang] if words in text(lang, key)]
    assert not left, left


def test_the_twos_the_text_names_are_the_engines() -> None:
    """rules.s2.body: no two leaves with four players; three with five and a kitty; the
    kitty is four cards in every preset that has one."""
    for preset in ("standard", "guide", "norsk", "fullstokk"):
        assert RuleSet(preset).resolved()["removed"] == 0
    five = RuleSet("standard", players=5).resolved()
    assert (five["kitty"], five["removed"]) == (4, 3)
    assert {RuleSet(p).resolved()["kitty"] for p in ("standard", "guide")} == {4}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_twos_help_tells_each_value(lang: str) -> None:
    """``remove_twos``: "so the cards divide evenly" holds for ``as_needed`` only, so the
    help describes each value under its own label."""
    help_text = text(lang, "opt.remove_twos.help").lower()
    for value in ("as_needed", "all"):
        label = text(lang, f"value.remove_twos.{value}").lower()
        assert label in help_text, (lang, label)
    assert help_text.index(text(lang, "value.remove_twos.as_needed").lower()) \
        < help_text.index("{removed}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_quick_start_gives_amerikaner_points_and_the_first_bidder(lang: str) -> None:
    assert "{amerikaner_points}" in text(lang, "rules.quick.amerikaner")
    dealer = text(lang, "value.first_bidder.dealer")
    first = {value: text(lang, f"rules.quick.first_{value}")
             for value in ("left_of_dealer", "dealer")}
    assert first["dealer"].lower().startswith(dealer.lower()), first
    assert first["left_of_dealer"] != first["dealer"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_examples_kitty_trick_is_said_only_with_the_option(lang: str) -> None:
    """rules.example.made/failed count the side's tricks; the _kitty forms add the kitty's
    trick (the client picks by the example's ``kitty_trick``)."""
    kitty = re.compile(r"kitty", re.IGNORECASE)
    for outcome in ("made", "failed"):
        plain, with_kitty = (text(lang, f"rules.example.{outcome}{end}") for end in ("", "_kitty"))
        assert not kitty.search(plain) and "{side}" not in plain and "{total}" in plain
        assert kitty.search(with_kitty) and "{side}" in with_kitty and "{total}" in with_kitty


def test_the_kitty_trick_counts_on_numeric_contracts_only() -> None:
    """What opt.kitty_trick.help says of an Amerikaner: the bidder must win every trick
    played, the kitty's trick does not make up for one."""
    from app.rules.scoring import deal_points

    rules = RuleSet("standard")
    options = rules.options
    assert options.kitty_trick and options.kitty
    tricks = [11, 1, 0, 0]
    # 11 of 12 tricks, plus the kitty's trick, would be 12: an Amerikaner still fails.
    amerikaner = _Deal(rules, bidder=0, partner=None, amerikaner=True,
                       contract_bid="amerikaner")
    points, made = deal_points(amerikaner, tricks)
    assert made is False and points[0] == -options.amerikaner_points
    # A numeric 12 with 11 tricks and the kitty's trick is made.
    _, made = deal_points(_Deal(rules, bidder=0, partner=2, amerikaner=False,
                                contract_bid=12), tricks)
    assert made is True


@dataclass(frozen=True)
class _Deal:
    """The facts of a deal that ``scoring.deal_points`` reads (``ScoredDeal``)."""

    rules: RuleSet
    bidder: int | None
    partner: int | None
    amerikaner: bool
    contract_bid: int | str | None
    minus_round: bool = False
    hand_size: int = 12
    tricks_won: tuple[int, ...] = ()
    tricks: tuple[tuple[int, tuple[int, ...], int], ...] = ()
