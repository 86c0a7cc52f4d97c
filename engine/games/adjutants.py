"""A Napoleon or Rettler summary's adjutants: who they were, and the cards that named them.

A summary record may name more adjutant cards than the declaration allows adjutants
(形式的に, footnote 8: 「♠A, ♠J, ♡J, ♣J の様に形式的に 4 種の副官カードを指名しても良く」;
「要は副官の合計人数が規定人数以下であればよい」): the foul of 3.3.5 is naming cards that
*could* make too many adjutants, which depends on the declarer's hand, and a summary
cannot show it.  So a summary is held to the adjutants found (at most the allowed
number, each a holder of a named card), and refused for its named cards only where no
hand of the declarer's size could hold back enough of them (:func:`named_cards`).  A
full-play record is checked exactly, against the declarer's dealt hand
(:mod:`engine.games.replay`).  :mod:`engine.games.declarer` asks these checks with its
game's deck and hand size.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import Card
from engine.problems import Checker, gettext_noop, join


def found(
    record: Mapping[str, Any],
    players: list[str],
    declarer: str | None,
    allowed: int | None,
    checker: Checker,
) -> list[str] | None:
    """The summary's adjutants (``None``: not all of them are players of the deal, one is
    the declarer or listed twice, or more are listed than the declaration allows)."""
    raw = checker.typed(checker.require(record, "adjutants"), list, "adjutants")
    if raw is None:
        return None
    listed: list[str] = []
    for i, value in enumerate(raw):
        path = join("adjutants", i)
        name = checker.player(value, players, path)
        if name is None:
            continue
        if name == declarer:
            checker.add(
                "declarer_as_adjutant",
                path,
                gettext_noop("'%(name)s' is the declarer"),
                name=name,
            )
        elif name in listed:
            checker.add(
                "duplicate_player", path, gettext_noop("'%(name)s' is listed twice"), name=name
            )
        else:
            listed.append(name)
    if allowed is not None and len(raw) > allowed:
        checker.add(
            "too_many_adjutants",
            "adjutants",
            gettext_noop("the declaration allows %(allowed)s adjutant(s), %(n_raw)s are listed"),
            allowed=allowed,
            n_raw=len(raw),
        )
        return None
    return listed if len(listed) == len(raw) else None


def named_cards(
    record: Mapping[str, Any],
    deck: Mapping[str, int],
    hand: int,
    allowed: int | None,
    checker: Checker,
) -> list[Card] | None:
    """The named adjutant cards of a summary (``None``: not given, or not cards).

    Every copy of a named card that the declarer was not dealt could make an adjutant
    (3.3.5: 「その可能性のある副官指名」).  A summary does not show the declarer's hand
    (``hand`` cards), so it is refused only when even a hand full of named cards leaves
    more possible adjutants than allowed; otherwise extra named cards are the 形式的
    naming of footnote 8, and the adjutants found are checked instead.
    """
    if "adjutant_cards" not in record:
        return None
    cards = checker.cards(record["adjutant_cards"], "adjutant_cards")
    if cards is None:
        return None
    checker.deck_counts(((join("adjutant_cards", i), c) for i, c in enumerate(cards)), deck)
    copies = sum(deck.get(code, 0) for code in {c.code for c in cards})
    if allowed is not None and copies - hand > allowed:
        checker.add(
            "too_many_adjutant_cards",
            "adjutant_cards",
            gettext_noop(
                "the cards named exist %(copies)s times in the deck: a hand of %(hand)s cannot hold back enough of them to leave at most %(allowed)s adjutant(s), a foul (3.3.5)"
            ),
            copies=copies,
            hand=hand,
            allowed=allowed,
        )
    if len(cards) == 0 and record.get("adjutants"):
        checker.add(
            "adjutant_without_card", "adjutants", gettext_noop("no adjutant card was named")
        )
    return cards


def held_by_named(
    listed: list[str], named: list[Card], deck: Mapping[str, int], checker: Checker
) -> None:
    """An adjutant holds a named card: no more adjutants than the named cards have copies
    in the deck (「副官が 2 人の場合 … ♠A と指名出来る」: Rettler's deck holds each card
    twice, Napoleon's once)."""
    copies = sum(deck[c.code] for c in set(named))
    if len(listed) > copies:
        checker.add(
            "too_many_adjutants",
            "adjutants",
            gettext_noop(
                "%(n_adjutants)s adjutants, but the %(n_named)s card(s) named exist %(copies)s time(s) in the deck: an adjutant is a holder of a named card"
            ),
            n_adjutants=len(listed),
            n_named=len(named),
            copies=copies,
        )
