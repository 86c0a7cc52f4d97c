"""Small readers shared by the shedding and trick games (Twenty-Two, 1234, Bhabhi, Comrade;
a trick's count of plays also by Napoleon and Rettler's :mod:`engine.games.trick_records`).

Each reads one piece of a full-play record while collecting problems on the
:class:`~engine.problems.Checker`, the way :mod:`engine.problems` does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card
from engine.problems import Checker, gettext_noop, join


def after(players: Sequence[str], player: str, step: int = 1) -> str:
    """The player ``step`` seats after ``player`` in ``players``."""
    return players[(players.index(player) + step) % len(players)]


def take(hand: list[Card], cards: Sequence[Card], who: str, path: str, checker: Checker) -> bool:
    """Remove ``cards`` from ``hand``; a card the player does not hold is a ``card_not_held``
    problem and the hand is left as it was."""
    held = Counter(c.code for c in hand)
    wanted = Counter(c.code for c in cards)
    missing = [code for code, n in wanted.items() if held[code] < n]
    if missing:
        checker.add(
            "card_not_held",
            path,
            gettext_noop("%(who)s does not hold %(names)s"),
            who=who,
            names=", ".join(missing),
        )
        return False
    for card in cards:
        hand.remove(card)
    return True


def dealer(record: Mapping[str, Any], players: list[str], checker: Checker) -> str | None:
    return checker.player(checker.require(record, "dealer"), players, "dealer")


def play_object(
    raw: Any, path: str, players: list[str], expected: str | None, checker: Checker
) -> dict[str, Any] | None:
    """One play ``{"player": …, …}``: an object naming a player, ``expected`` when given."""
    play = checker.typed(raw, dict, path)
    if play is None:
        return None
    who = checker.player(checker.require(play, "player", path), players, join(path, "player"))
    if who is None:
        return None
    if expected is not None and who != expected:
        checker.add(
            "wrong_order",
            join(path, "player"),
            gettext_noop("it is %(expected)s's turn, not %(who)s's"),
            expected=expected,
            who=who,
        )
        return None
    return play


def plays_once(plays: list[Any], path: str, n: int, checker: Checker) -> bool:
    """Whether the trick at ``path`` lists a play for each of its ``n`` players (each plays
    once; whose turn each play is, the caller checks); if not, a ``wrong_play_count``
    problem at its ``plays``."""
    if len(plays) == n:
        return True
    checker.add(
        "wrong_play_count",
        join(path, "plays"),
        gettext_noop("every one of the %(n)s players plays once"),
        n=n,
    )
    return False


def one_card(play: Mapping[str, Any], path: str, checker: Checker) -> Card | None:
    return checker.card(checker.require(play, "card", path), join(path, "card"))


def draw_rounds(
    record: Mapping[str, Any],
    players: list[str],
    dealer: str | None,
    checker: Checker,
    key: str = "draw",
) -> list[str] | None:
    """The cut for the dealer: rounds of ``{player: card}``, highest rank deals, players tied
    at the top draw again (the next round is exactly them).  Returns who drew in the first
    round (a match checks they were the right ones), ``None`` when unreadable."""
    rounds = checker.typed(record[key], list, key)
    if rounds is None or not rounds:
        if rounds is not None:
            checker.add("wrong_draw", key, gettext_noop("a draw has at least one round"))
        return None
    first: list[str] | None = None
    expected: list[str] | None = None
    for i, raw in enumerate(rounds):
        path = join(key, i)
        cards = checker.per_player(raw, expected or players, path, required=expected is not None)
        if cards is None:
            return first
        drawn = {p: checker.card(v, join(path, p)) for p, v in cards.items()}
        strength = {p: c.strength for p, c in drawn.items() if c is not None}
        if len(strength) != len(cards) or len(strength) < 2:
            if len(strength) == len(cards):
                checker.add(
                    "wrong_draw", path, gettext_noop("at least two players draw for the deal")
                )
            return first
        if first is None:
            first = [p for p in players if p in strength]
        best = max(strength.values())
        expected = [p for p in players if strength.get(p) == best]
        if len(expected) == 1:
            if i != len(rounds) - 1:
                checker.add(
                    "wrong_draw",
                    join(key, i + 1),
                    gettext_noop("%(expected)s drew highest already"),
                    expected=expected[0],
                )
            elif dealer is not None and dealer != expected[0]:
                checker.add(
                    "wrong_dealer",
                    "dealer",
                    gettext_noop("%(expected)s drew the highest card"),
                    expected=expected[0],
                )
            return first
    checker.add(
        "wrong_draw",
        key,
        gettext_noop("%(names)s tied for highest and draw again"),
        names=", ".join(expected or []),
    )
    return first
