"""A trick of a Napoleon or Rettler full-play record, read as it is written
(docs/deal-records.md, "Full play"): each play's player and cards, and the suit a
joker lead or a 原爆 names.  :mod:`engine.games.replay` plays what is read here.

Reading is kept apart from the rules: these functions check the record's shape and
report where it is wrong; whether a play is legal is the replay's question.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import BY_CODE, Card
from engine.games.common import plays_once
from engine.games.tricks import TRUMP_SUIT, Trump
from engine.problems import Checker, gettext_noop, join

LEAD_KEYS = frozenset({"player", "cards", "suit"})
PLAY_KEYS = frozenset({"player", "cards"})


def read_plays(
    trick: Any, path: str, n: int, checker: Checker
) -> list[tuple[str, list[Card], Mapping[str, Any]]] | None:
    """The trick's plays as (player, cards, raw object); ``None`` after a problem.

    Paths are only built when something is wrong: this runs for every play of
    every trick.
    """
    raw_plays = trick.get("plays") if type(trick) is dict and len(trick) == 1 else None
    if type(raw_plays) is not list:
        trick = checker.typed(trick, dict, path)
        if trick is None:
            return None
        checker.known_keys(trick, {"plays"}, path)
        raw_plays = checker.typed(checker.require(trick, "plays", path), list, join(path, "plays"))
        if raw_plays is None:
            return None
    if not plays_once(raw_plays, path, n, checker):
        return None
    plays: list[tuple[str, list[Card], Mapping[str, Any]]] = []
    allowed = LEAD_KEYS
    for k, play in enumerate(raw_plays):
        if type(play) is dict and play.keys() <= allowed:
            who = play.get("player")
            cards = fast_cards(play.get("cards"))
            if type(who) is str and cards is not None:
                plays.append((who, cards, play))
                allowed = PLAY_KEYS
                continue
        play_path = join(join(path, "plays"), k)
        before = len(checker.problems)
        play = checker.typed(play, dict, play_path)
        if play is None:
            return None
        checker.known_keys(play, allowed, play_path)
        who = checker.typed(
            checker.require(play, "player", play_path), str, join(play_path, "player")
        )
        cards = checker.cards(checker.require(play, "cards", play_path), join(play_path, "cards"))
        if cards == []:
            checker.add(
                "wrong_card_count",
                join(play_path, "cards"),
                gettext_noop("a play has at least one card"),
            )
        if who is None or not cards or len(checker.problems) > before:
            return None
        # Cards written otherwise than their codes (♠A, sa): read, and the play goes on.
        plays.append((who, cards, play))
        allowed = PLAY_KEYS
    return plays


def fast_cards(value: Any) -> list[Card] | None:
    """The cards of a non-empty list of canonical codes; ``None`` sends the caller to the checks."""
    if type(value) is not list or not value:
        return None
    cards = [BY_CODE.get(item) if type(item) is str else None for item in value]
    return None if None in cards else cards  # type: ignore[return-value]


def named_suit(
    play: Mapping[str, Any], cards: list[Card], trump: Trump, checker: Checker, path: str
) -> Any:
    """The suit named on a joker lead or a 原爆 (``suit`` on the lead play).

    Required in the no-trump family.  With red/black the contract lets the record
    name one of the two trump suits; the followers may still play either (2.3.4).
    """
    names = cards[0].is_joker or len(cards) > 2
    if "suit" not in play:
        if names and trump.notrump:
            checker.add(
                "missing_field",
                join(path, "suit"),
                gettext_noop("a joker lead or a 原爆 in no-trump names a suit"),
            )
        return None
    name = play["suit"]
    if not isinstance(name, str) or name not in TRUMP_SUIT:
        checker.add(
            "unknown_suit",
            join(path, "suit"),
            gettext_noop("%(name)s is not spades, hearts, diamonds or clubs"),
            name=repr(name),
        )
        return None
    if not (names and (trump.notrump or trump.name in ("red", "black"))):
        checker.add(
            "not_applicable",
            join(path, "suit"),
            gettext_noop("only a joker lead or a 原爆 in no-trump or red/black names a suit"),
        )
        return None
    if trump.name in ("red", "black") and TRUMP_SUIT[name] not in trump.suits(None):
        checker.add(
            "unknown_suit",
            join(path, "suit"),
            gettext_noop("%(name)s is not a %(name2)s trump suit"),
            name=name,
            name2=trump.name,
        )
        return None
    return TRUMP_SUIT[name]
