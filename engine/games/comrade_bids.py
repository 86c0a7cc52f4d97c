"""Comrade's bid cards: whether the cards on the table could have made a summary's bids.

A summary gives each player's bids per suit; the bid cards behind them are physical
(each exists once, a bid is the top card of its stack, jokers add one with five players,
three turns a player): :func:`bid_cards_allow` searches for cards that make them, and
says in words why none do.  The rules of Comrade are in :mod:`engine.games.comrade`.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.cards import Suit
from engine.games.comrade_play import BID_RANKS, ROUNDS, SUIT_NAME
from engine.problems import Checker, gettext_noop, join


def bid_cards_allow(bids: Mapping[str, Mapping[Suit, int]], n: int, checker: Checker) -> bool:
    """Whether the bid cards on the table could have made ``bids`` (a summary's bids).

    Each bid in a suit is the top card of the player's stack of that suit, and
    every bid card exists once (「すでに他の人が取っているカードを横どりすることは
    できません」): with 3 players the cards are A–4 of each suit, so no bid is above
    4 and no two players bid the same count in one suit; with 4 players A–6.  With
    5 players the cards are A–4 and two jokers, each adding 1 to a bid (or opening
    a suit at 1), so a bid is its top card plus the jokers on it: bids may repeat
    or reach 6, as long as two jokers cover the differences.  Every card or joker
    is one turn, and a player has one turn a round for three rounds, so a player
    takes at most three.  Problems are reported at the bids' paths.
    """
    top = len(BID_RANKS[n])
    jokers = 2 if n == 5 else 0
    wanted = [(p, s, b) for p, row in bids.items() for s, b in row.items() if b]
    ok = True
    for p, s, b in wanted:
        if b > top + jokers:
            template = (
                gettext_noop(
                    "with %(n)s players the bid cards are A–%(top)s and two jokers: no bid is above %(number)s, not %(b)s"
                )
                if jokers
                else gettext_noop(
                    "with %(n)s players the bid cards are A–%(top)s: no bid is above %(top)s, not %(b)s"
                )
            )
            checker.add(
                "bid_out_of_range",
                join(join("bids", p), SUIT_NAME[s]),
                template,
                n=n,
                top=top,
                number=top + jokers,
                b=b,
            )
            ok = False
    if not ok:
        return False
    # Search the top cards (the rest jokers) that make every bid with at most the jokers
    # there are, each card once per suit, three turns a player.  Bids are few: a small search.
    wanted.sort(key=lambda item: -item[2])
    taken: set[tuple[Suit, int]] = set()
    turns: dict[str, int] = dict.fromkeys(bids, 0)

    def place(i: int, left: int) -> bool:
        if i == len(wanted):
            return True
        p, s, b = wanted[i]
        for extra in range(min(left, b) + 1):
            card = b - extra
            if card > top or (card and (s, card) in taken):
                continue
            needs = (1 if card else 0) + extra
            if turns[p] + needs > ROUNDS:
                continue
            if card:
                taken.add((s, card))
            turns[p] += needs
            if place(i + 1, left - extra):
                return True
            turns[p] -= needs
            taken.discard((s, card))
        return False

    if place(0, jokers):
        return True
    _explain(bids, n, top, jokers, checker)
    return False


def _explain(
    bids: Mapping[str, Mapping[Suit, int]], n: int, top: int, jokers: int, checker: Checker
) -> None:
    """Name the first bid the bid cards cannot give: a card taken twice, or a player
    with more cards than three rounds give."""
    for p, row in bids.items():
        cards = sum(1 for b in row.values() if b)
        if cards > ROUNDS:
            checker.add(
                "too_many_bids",
                join("bids", p),
                gettext_noop(
                    "%(p)s bids %(cards)s suits: one card a turn, three rounds, so three at most"
                ),
                p=p,
                cards=cards,
            )
            return
    total = 0
    for s in Suit:
        caps = sorted(((row[s], p) for p, row in bids.items() if row.get(s)), reverse=True)
        free = set(range(1, top + 1))
        needed = 0
        for bid, p in caps:
            card = max((v for v in free if v <= bid), default=0)
            free.discard(card)
            needed += bid - card
            if needed > jokers:
                holder, held = next((q, b) for b, q in caps if b >= bid and q != p)
                template = (
                    gettext_noop(
                        "%(holder)s bids %(held)s %(suit)s too: with %(n)s players each bid card (A–%(top)s) exists once and a bid is the top card of a player's stack, a joker adding one, so none is left to make %(p)s's %(bid)s"
                    )
                    if jokers
                    else gettext_noop(
                        "%(holder)s bids %(held)s %(suit)s too: with %(n)s players each bid card (A–%(top)s) exists once and a bid is the top card of a player's stack, so none is left to make %(p)s's %(bid)s"
                    )
                )
                checker.add(
                    "bid_card_taken",
                    join(join("bids", p), SUIT_NAME[s]),
                    template,
                    holder=holder,
                    held=held,
                    suit=SUIT_NAME[s],
                    n=n,
                    top=top,
                    p=p,
                    bid=bid,
                )
                return
        total += needed
    checker.add(
        "bid_card_taken",
        "bids",
        gettext_noop(
            "these bids need %(total)s jokers on top of the bid cards A–%(top)s; there are two"
        ),
        total=total,
        top=top,
    )
