"""Twenty-Two (22, the Cucumber family): lose the last trick and take its card as penalty.

Rulebook: ../shared/rules/002_…twentytwo-1234-bhabhi.txt, 「22(Twenty-Two)」.

A deal: seven cards each (later deals: as many as the last penalty), one
exchange round from the dealer's left (never more cards than the stock holds),
then tricks led from the dealer's left.  A lead is one card or a set of one rank
that leaves at least one card in hand; every follow plays as many cards, each
meeting or beating the standing play card by card, or else the lowest cards in
hand.  When every hand holds one card the last trick is played all at once: the
highest rank loses and takes its penalty (A 11, K Q J 10 10, others face
value); every player tied for highest loses.  Scores are minus the penalty.

A match (:mod:`engine.games.twentytwo_match`): a player whose penalties reach 22 is
out (several at once possible); the loser deals the next deal with as many cards each
as the penalty, as many as the cards left allow, equal for all.  The last survivor
wins.

Decisions where the book is silent or loose:

- Card by card (例2, 例3): the follow and the standing play (the lead, or the
  last follow that met or beat it) are each sorted high to low and compared
  position by position.  The trick is won by the highest card, the last of
  equal ones ("最後にそのカードを出した人の勝ち"), even when it came in a
  lowest-cards follow.
- A follow of the lowest cards is judged by rank (suits never matter).
- 7 or more players use two decks (``decks`` 2).  The deck of a match stays the
  one it started with; penalty cards stay out of it ("前に置いたカード"), so
  later deals deal from what is left.
- Several losers who are still in draw for the deal (``draw``); when every
  loser is out, everyone draws.  A draw is rounds of one card each, the
  highest rank deals, players tied at the top draw again.
- Everyone out at once (``rules.all_out``): ``last_out`` (default) makes every
  player out in that deal a winner; ``lowest`` only those of them with the
  fewest penalty points.
- Gambling cucumber (``rules.gambling``): penalties A 14, K 13, Q 12, J 11,
  out at 30; a player going out may buy back once (``buy_back``), keeping the
  total from before that deal, but not in a deal of three players; when one
  of three players goes out the match ends and the fewest penalty points win.
  A bought-back penalty scores 0 for that deal.

What a summary can never say (issue 18): two last cards more than the decks
hold; hands the decks cannot deal; a penalty card played again (it lies in front
of a loser for the rest of the match); buying back outside the gambling game,
for a player the deal did not put out, or in a deal of three.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import Card, standard_deck
from engine.deal import check_deal, play_match
from engine.game import DealResult, Game, Scored
from engine.games.common import dealer, draw_rounds
from engine.games.twentytwo_match import TwentyTwoMatch, default_decks
from engine.games.twentytwo_play import FIRST_HAND, card_codes, random_deal, replay
from engine.match import MatchState
from engine.problems import MISSING, Checker, gettext_noop, join

FULL_PLAY_KEYS = frozenset({"hands", "stock", "exchanges", "tricks"})
ALL_OUT = ("last_out", "lowest")


def penalty(card: Card, gambling: bool) -> int:
    """The penalty of a card that loses the last trick."""
    if gambling or card.strength < 10:
        return card.strength
    return 11 if card.rank == "A" else 10


class TwentyTwo(Game):
    name = "twentytwo"
    player_counts = frozenset(range(2, 11))
    deal_keys = (
        frozenset({"dealer", "draw", "hand_size", "decks", "last_trick", "buy_back"})
        | FULL_PLAY_KEYS
    )
    rule_names = frozenset({"gambling", "all_out"})
    inherited_keys = frozenset({"rules"})
    best_players = 4
    deals_follow_the_match = True
    goal = "eliminations"

    def deck_for(self, players: int, rules: Mapping[str, Any]) -> Mapping[str, int]:
        """One deck, two from 7 players (a deal's ``decks`` may say otherwise)."""
        return standard_deck(copies=default_decks(players))

    def random_deal(self, rng: random.Random, state: MatchState) -> dict[str, Any] | None:
        """The next deal of the match by random legal choices; in the gambling game a player
        put out by it buys back now and then (7 times in 10)."""
        assert isinstance(state, TwentyTwoMatch)
        nxt = state.next_deal()
        seated = list(nxt["players"])
        drawers = state.losers or seated
        deals_by = state.dealer or rng.choice(drawers)
        removed = [code for code, copies in state.removed.items() for _ in range(copies)]
        deal = random_deal(rng, seated, deals_by, nxt["hand_size"], nxt["decks"], removed)
        if state.gambling and len(seated) > 3:
            result = check_deal(self, {**deal, "rules": state.rules})
            out = [
                p
                for p in result.details["losers"]
                if state.penalty(p) + result.details["penalty"] >= state.limit
                and p not in state.bought
            ]
            if out and rng.random() < 0.7:
                deal["buy_back"] = out
        return deal

    def check_rules(self, rules: Mapping[str, Any], checker: Checker, path: str) -> dict[str, Any]:
        gambling = checker.typed(rules.get("gambling", False), bool, join(path, "gambling"))
        all_out = checker.typed(rules.get("all_out", "last_out"), str, join(path, "all_out"))
        if all_out is not None and all_out not in ALL_OUT:
            checker.add(
                "out_of_range",
                join(path, "all_out"),
                gettext_noop("one of %(names)s"),
                names=", ".join(ALL_OUT),
            )
        return {"gambling": bool(gambling), "all_out": all_out}

    def new_match(
        self, players: list[str], rules: dict[str, Any], target: int | None
    ) -> MatchState:
        return TwentyTwoMatch(self, players, rules, target)

    def progress(
        self, snapshot: Mapping[str, Any], players: Sequence[str], target: int | None
    ) -> tuple[int, int | None]:
        """The players put out (a buy-back brings one in again), of all but the survivor."""
        return len(players) - len(snapshot.get("alive", players)), len(players) - 1

    def summary(self, record: Mapping[str, Any], result: DealResult) -> dict[str, Any]:
        keep = ("dealer", "draw", "hand_size", "decks", "buy_back")
        return {
            **{k: record[k] for k in keep if k in record},
            "last_trick": result.details["last_trick"],
        }

    def score_deal(
        self, record: Mapping[str, Any], players: list[str], rules: dict[str, Any], checker: Checker
    ) -> Scored | None:
        n = len(players)
        deals_by = dealer(record, players, checker)
        decks = checker.integer(
            record.get("decks", default_decks(n)), "decks", minimum=1, maximum=2
        )
        hand_size = checker.integer(record.get("hand_size", FIRST_HAND), "hand_size", minimum=2)
        if decks is not None and hand_size is not None and hand_size * n > 52 * decks:
            checker.add(
                "out_of_range",
                "hand_size",
                gettext_noop("%(n)s hands of %(hand_size)s need more than %(decks)s deck(s)"),
                n=n,
                hand_size=hand_size,
                decks=decks,
            )
            return None
        if "draw" in record:
            draw_rounds(record, players, deals_by, checker)
        if deals_by is None or decks is None or hand_size is None or not checker.ok:
            return None
        deck = standard_deck(copies=decks)
        trick_winners: list[str] | None = None
        if not FULL_PLAY_KEYS.isdisjoint(record):
            replayed = replay(record, players, deals_by, hand_size, deck, checker)
            if replayed is None:
                return None
            last, trick_winners = replayed
            if "last_trick" in record:
                given = self._last_trick(record, players, deck, checker)
                compared = MISSING if given is None else card_codes(given)
                checker.agrees("last_trick", compared, card_codes(last))
        else:
            read = self._last_trick(record, players, deck, checker)
            if read is None:
                return None
            last = read
        if not checker.ok:
            return None

        top = max(card.strength for card in last.values())
        losers = [p for p in players if last[p].strength == top]
        points = penalty(last[losers[0]], bool(rules["gambling"]))
        bought = self._buy_back(record, players, losers, rules, checker)
        if bought is None:
            return None
        scores = {p: -points if p in losers and p not in bought else 0 for p in players}
        details: dict[str, Any] = {
            "last_trick": card_codes(last),
            "losers": losers,
            "penalty": points,
            "buy_back": bought,
            "next_dealer": losers[0] if len(losers) == 1 else None,
        }
        if trick_winners is not None:
            details["trick_winners"] = trick_winners
        return Scored(scores, tuple(p for p in players if p not in losers), details)

    def _last_trick(
        self,
        record: Mapping[str, Any],
        players: list[str],
        deck: Mapping[str, int],
        checker: Checker,
    ) -> dict[str, Card] | None:
        raw = checker.per_player(checker.require(record, "last_trick"), players, "last_trick")
        if raw is None:
            return None
        cards = {p: checker.card(v, join("last_trick", p)) for p, v in raw.items()}
        last = {p: c for p, c in cards.items() if c is not None}
        checker.deck_counts(((join("last_trick", p), c) for p, c in last.items()), deck)
        return last if len(last) == len(players) else None

    def _buy_back(
        self,
        record: Mapping[str, Any],
        players: list[str],
        losers: list[str],
        rules: Mapping[str, Any],
        checker: Checker,
    ) -> list[str] | None:
        raw = checker.typed(record.get("buy_back", []), list, "buy_back")
        if raw is None:
            return None
        if raw and not rules["gambling"]:
            checker.add(
                "not_applicable",
                "buy_back",
                gettext_noop("buying back is a rule of the gambling cucumber"),
            )
            return None
        if raw and len(players) <= 3:
            checker.add(
                "no_buy_back", "buy_back", gettext_noop("no buying back once three players remain")
            )
            return None
        bought: list[str] = []
        for i, value in enumerate(raw):
            who = checker.player(value, players, join("buy_back", i))
            if who is not None and who not in losers:
                checker.add(
                    "not_a_loser",
                    join("buy_back", i),
                    gettext_noop("%(who)s did not lose this deal"),
                    who=who,
                )
            elif who is not None:
                bought.append(who)
        return bought if len(bought) == len(raw) else None


def random_match(
    rng: random.Random, players: list[str], rules: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A whole match of full-play deals, played to its end by random legal choices."""
    rules = dict(rules or {})
    deals = play_match(TwentyTwo(), rng, list(players), rules)
    return {"game": "twentytwo", "players": list(players), "rules": rules, "deals": deals}
