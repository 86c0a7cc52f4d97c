"""1234 (Thailand, ヌン・ソーン・サーム・シィー): play 1 to 4 above the last number, or pass, or drop out.

Rulebook: ../shared/rules/002_…twentytwo-1234-bhabhi.txt, 「1234」.

A game (one deal record): five cards each and a start card face up.  Turns go
to the right, which is the order of ``players``, starting after the dealer.  A
turn is a *play* (cards whose values, A 1 … K 13, add up to 1–4 above the last
number: the start card or the last play), a *pass* (one ace; two number cards
of a rank and a face card; three of a suit; three of a rank; two pairs of
number cards), or, only when neither is possible, a *drop-out*.  After a play
or pass the player draws up to three cards, never above five.  The game ends
when one player is left (the winner) or the stock runs out while refilling
(the highest card still in a hand wins, then the next highest, …).

Scoring across games (the rulebook's three proposals, ``rules.scoring``):
``winner_plus`` (default; the winner scores the cards left in every other
hand), ``loser_minus`` (every other player loses their own cards' sum) and
``chips`` (every other player pays their sum to the winner).  A dropped
player's hand is the cards put face down.  The winner deals the next game.

Decisions: a complete tie in the stock ending goes to the tied player who is
first in order of play from the dealer's right (the first turn).  ``rules.limit``
ends a match early: points to win (``winner_plus``), a loss limit
(``loser_minus``, the fewest losses then win) or the starting chips
(``chips``: a player with none left ends it).  ``target`` is the number of games.
Two pairs may be the same rank (four of a kind is two pairs).

What a summary can never say (issue 18): more than five cards in a hand (「各プレイヤーは
最大5枚の手札を持ち」); a card twice; a winner who dropped out; every player dropped out;
a winner of the stock ending without the highest cards; a dropped player whose
cards left hold a pass (「手番にプレイもパスもできない時は、手札をすべて裏向きに
自分の前に置き、ドロップアウト」: e.g. an ace, three of a suit).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from engine.cards import BY_CODE, Card, standard_deck
from engine.game import DealResult, Game, Scored
from engine.games.common import after, dealer, play_object, take
from engine.match import MatchState
from engine.problems import Checker, gettext_noop, join

FULL_PLAY_KEYS = frozenset({"hands", "start", "stock", "turns"})
SCORING = ("winner_plus", "loser_minus", "chips")
HAND = 5
DRAW = 3
FACES = frozenset({"J", "Q", "K"})


def value(card: Card) -> int:
    """A 1, 2–10 face value, J 11, Q 12, K 13."""
    return 1 if card.rank == "A" else card.strength


def is_pass(cards: Sequence[Card]) -> bool:
    """The five pass combinations of the rulebook."""
    ranks = Counter(c.rank for c in cards)
    if len(cards) == 1:
        return cards[0].rank == "A"
    if len(cards) == 3:
        faces = [c for c in cards if c.rank in FACES]
        numbers = [c for c in cards if c.rank not in FACES]
        if len(faces) == 1 and len(numbers) == 2 and numbers[0].rank == numbers[1].rank:
            return True
        return len({c.suit for c in cards}) == 1 or len(ranks) == 1
    if len(cards) == 4:
        return all(r not in FACES for r in ranks) and all(n % 2 == 0 for n in ranks.values())
    return False


def _subsets(hand: Sequence[Card]) -> Iterator[list[Card]]:
    """Every non-empty set of cards of ``hand``, smallest first."""
    for size in range(1, len(hand) + 1):
        for combo in itertools.combinations(hand, size):
            yield list(combo)


def options(hand: Sequence[Card], last: int) -> tuple[list[list[Card]], list[list[Card]]]:
    """Every play and every pass a hand allows after the number ``last``."""
    plays: list[list[Card]] = []
    passes: list[list[Card]] = []
    for cards in _subsets(hand):
        if last < sum(value(c) for c in cards) <= last + 4:
            plays.append(cards)
        if is_pass(cards):
            passes.append(cards)
    return plays, passes


def best_hand(hands: Mapping[str, Sequence[Card]], order: Sequence[str]) -> str:
    """The stock ending: the highest card, then the next highest…; ties to the first in ``order``."""
    return max(order, key=lambda p: (sorted((value(c) for c in hands[p]), reverse=True), -order.index(p)))  # fmt: skip


class OneTwoThreeFour(Game):
    name = "1234"
    player_counts = frozenset({2, 3, 4, 5})
    deal_keys = frozenset({"dealer", "winner", "dropped", "hands_left"}) | FULL_PLAY_KEYS
    rule_names = frozenset({"scoring", "limit"})
    inherited_keys = frozenset({"rules"})
    accepts_target = True
    best_players = 4
    deals_follow_the_match = True

    def random_deal(self, rng: random.Random, state: MatchState) -> dict[str, Any] | None:
        """The first game is dealt by the last player; then the last winner deals."""
        players = list(state.players)
        return random_deal(rng, players, state.next_deal().get("dealer", players[-1]))

    def check_rules(self, rules: Mapping[str, Any], checker: Checker, path: str) -> dict[str, Any]:
        scoring = checker.typed(rules.get("scoring", SCORING[0]), str, join(path, "scoring"))
        if scoring is not None and scoring not in SCORING:
            checker.add(
                "out_of_range",
                join(path, "scoring"),
                gettext_noop("one of %(names)s"),
                names=", ".join(SCORING),
            )
        limit = None
        if "limit" in rules:
            limit = checker.integer(rules["limit"], join(path, "limit"), minimum=1)
        return {"scoring": scoring, "limit": limit}

    def new_match(
        self, players: list[str], rules: dict[str, Any], target: int | None
    ) -> MatchState:
        return OneTwoThreeFourMatch(self, players, rules, target)

    def next_dealer(self, players: list[str], played: int, result: DealResult) -> str | None:
        return str(result.details["winner"])

    def summary(self, record: Mapping[str, Any], result: DealResult) -> dict[str, Any]:
        d = result.details
        return {"dealer": record["dealer"], "winner": d["winner"], "dropped": d["dropped"], "hands_left": d["hands_left"]}  # fmt: skip

    def score_deal(
        self, record: Mapping[str, Any], players: list[str], rules: dict[str, Any], checker: Checker
    ) -> Scored | None:
        deals_by = dealer(record, players, checker)
        if deals_by is None or not checker.ok:
            return None
        first = after(players, deals_by)
        order = [after(players, first, k) for k in range(len(players))]
        details: dict[str, Any] = {}
        if not FULL_PLAY_KEYS.isdisjoint(record):
            played = replay(record, players, first, checker)
            if played is None:
                return None
            hands, dropped, winner, ended = played
            details["ended"] = ended
            for key, derived in (("hands_left", _codes(hands)), ("dropped", dropped), ("winner", winner)):  # fmt: skip
                if key in record and record[key] != derived:
                    checker.add(
                        "replay_mismatch",
                        key,
                        gettext_noop("the replay gives %(derived)s"),
                        derived=derived,
                    )
        else:
            read = self._summary(record, players, order, checker)
            if read is None:
                return None
            hands, dropped, winner = read
        if not checker.ok:
            return None
        sums = {p: sum(value(c) for c in hands[p]) for p in players}
        pot = sum(sums[p] for p in players if p != winner)
        method = rules["scoring"]
        scores = {p: 0 if p == winner else (0 if method == "winner_plus" else -sums[p]) for p in players}  # fmt: skip
        if method != "loser_minus":
            scores[winner] = pot
        details.update({"winner": winner, "dropped": dropped, "hands_left": _codes(hands), "hand_sums": sums})  # fmt: skip
        return Scored(scores, (winner,), details)

    def _summary(
        self, record: Mapping[str, Any], players: list[str], order: list[str], checker: Checker
    ) -> tuple[dict[str, list[Card]], list[str], str] | None:
        raw = checker.per_player(checker.require(record, "hands_left"), players, "hands_left")
        dropped_raw = checker.typed(record.get("dropped", []), list, "dropped")
        winner = checker.player(checker.require(record, "winner"), players, "winner")
        if raw is None or dropped_raw is None or winner is None:
            return None
        hands: dict[str, list[Card]] = {}
        placed: list[tuple[str, Card]] = []
        for p, v in raw.items():
            cards = checker.cards(v, join("hands_left", p))
            if cards is None:
                continue
            if len(cards) > HAND:
                checker.add("wrong_card_count", join("hands_left", p), gettext_noop('a hand holds at most %(hand)s cards'), hand=HAND)  # fmt: skip
            hands[p] = cards
            placed += [(join(join("hands_left", p), i), c) for i, c in enumerate(cards)]
        checker.deck_counts(placed, standard_deck())
        dropped: list[str] = []
        for i, v in enumerate(dropped_raw):
            who = checker.player(v, players, join("dropped", i))
            if who in dropped:
                checker.add(
                    "duplicate_player",
                    join("dropped", i),
                    gettext_noop("%(who)s dropped out once"),
                    who=who,
                )
            elif who is not None:
                dropped.append(who)
        if len(hands) != len(players) or not checker.ok:
            return None
        for p in dropped:
            held = next((c for c in _subsets(hands[p]) if is_pass(c)), None)
            if held is not None:
                codes = " ".join(c.code for c in held)
                checker.add("could_play", join("hands_left", p),
                            gettext_noop('%(p)s dropped out holding a pass (%(codes)s): a drop-out is allowed only when no play and no pass is possible'), p=p, codes=codes)  # fmt: skip
        if winner in dropped:
            checker.add(
                "wrong_winner", "winner", gettext_noop("%(winner)s dropped out"), winner=winner
            )
        elif len(dropped) == len(players):
            checker.add(
                "out_of_range", "dropped", gettext_noop("the last player left never drops out")
            )
        elif len(dropped) < len(players) - 1:
            left = [p for p in order if p not in dropped]
            best = best_hand(hands, left)
            if best != winner:
                checker.add("wrong_winner", "winner", gettext_noop('the stock ran out: %(best)s holds the highest cards'), best=best)  # fmt: skip
        return hands, dropped, winner


def replay(
    record: Mapping[str, Any], players: list[str], first: str, checker: Checker
) -> tuple[dict[str, list[Card]], list[str], str, str] | None:
    """Replay every turn: (hands at the end, drop-outs in order, winner, how it ended)."""
    hands = checker.dealt_hands(record, players, HAND)
    start = checker.card(checker.require(record, "start"), "start")
    stock = checker.cards(checker.require(record, "stock"), "stock")
    turns = checker.typed(checker.require(record, "turns"), list, "turns")
    if hands is None or start is None or stock is None or turns is None:
        return None
    placed = [(join(join("hands", p), i), c) for p in players for i, c in enumerate(hands[p])]
    placed += [("start", start)] + [(join("stock", i), c) for i, c in enumerate(stock)]
    checker.deck_counts(placed, standard_deck())
    if not checker.ok:
        return None
    if len(placed) != 52:
        checker.add("incomplete_deck", "stock", gettext_noop('hands, start card and stock hold %(n_placed)s cards, not 52'), n_placed=len(placed))  # fmt: skip
        return None
    last = value(start)
    dropped: list[str] = []
    turn = first
    ended = ""
    for i, raw in enumerate(turns):
        path = join("turns", i)
        if ended:
            checker.add("deal_over", path, gettext_noop("the game was over before this turn"))
            return None
        play = play_object(raw, path, players, turn, checker)
        if play is None:
            return None
        checker.known_keys(play, ("player", "play", "pass", "drop"), path)
        kinds = [k for k in ("play", "pass", "drop") if k in play]
        if len(kinds) != 1:
            checker.add(
                "unknown_play", path, gettext_noop("a turn is exactly one of play, pass or drop")
            )
            return None
        hand = hands[turn]
        plays, passes = options(hand, last)
        if kinds[0] == "drop":
            if plays or passes:
                shown = " ".join(c.code for c in (plays or passes)[0])
                checker.add("could_play", path, gettext_noop('%(turn)s cannot drop out: %(shown)s is a legal %(value)s'), turn=turn, shown=shown, value=gettext_noop('play') if plays else gettext_noop('pass'))  # fmt: skip
                return None
            dropped.append(turn)
        else:
            cards = checker.cards(play[kinds[0]], join(path, kinds[0]))
            if cards is None or not cards:
                if cards is not None:
                    checker.add(
                        "wrong_card_count", join(path, kinds[0]), gettext_noop("at least one card")
                    )
                return None
            if not take(hand, cards, turn, join(path, kinds[0]), checker):
                return None
            if kinds[0] == "play":
                total = sum(value(c) for c in cards)
                if not last < total <= last + 4:
                    checker.add("illegal_play", join(path, "play"), gettext_noop('adds up to %(total)s; this turn needs %(number)s to %(number2)s'), total=total, number=last + 1, number2=last + 4)  # fmt: skip
                    return None
                last = total
            elif not is_pass(cards):
                checker.add("illegal_pass", join(path, "pass"), gettext_noop('a pass is one ace, a pair of number cards with a face card, three of a suit, three of a rank, or two pairs of number cards'))  # fmt: skip
                return None
            need = min(DRAW, HAND - len(hand))
            hand.extend(stock[:need])
            del stock[:need]
            if not stock:
                ended = "stock"
        left = [p for p in players if p not in dropped]
        if len(left) == 1:
            ended = "last_player"
        else:
            turn = after(players, turn)
            while turn in dropped:
                turn = after(players, turn)
    if not ended:
        checker.add(
            "deal_not_over",
            "turns",
            gettext_noop("the game goes on: it is %(turn)s's turn"),
            turn=turn,
        )
        return None
    left = [p for p in players if p not in dropped]
    order = [after(players, first, k) for k in range(len(players))]
    winner = left[0] if len(left) == 1 else best_hand(hands, [p for p in order if p in left])
    return hands, dropped, winner, ended


def _codes(hands: Mapping[str, list[Card]]) -> dict[str, list[str]]:
    return {p: [c.code for c in h] for p, h in hands.items()}


class OneTwoThreeFourMatch(MatchState):
    """A series of games: ``target`` games, or until ``rules.limit`` is reached; the
    winner of a game deals the next ("前回の勝者がディーラーになる")."""

    def next_deal(self) -> dict[str, Any]:
        deal = super().next_deal()
        if self.dealer is not None:
            deal["dealer"] = self.dealer
        return deal

    def check_deal(self, record: Mapping[str, Any], result: DealResult, checker: Checker) -> None:
        if self.dealer is not None and record.get("dealer") != self.dealer:
            checker.add(
                "wrong_dealer",
                "dealer",
                gettext_noop("%(dealer)s won the last game and deals"),
                dealer=self.dealer,
            )

    def add(self, record: Mapping[str, Any], result: DealResult) -> None:
        super().add(record, result)
        limit = self.rules.get("limit")
        method = self.rules.get("scoring")
        reached = False
        if limit is not None:
            if method == "winner_plus":
                reached = max(self.totals.values()) >= limit
            else:
                reached = min(self.totals.values()) <= -limit
        self.finished = reached or (self.target is not None and self.played >= self.target)

    def details(self) -> dict[str, Any]:
        method = self.rules.get("scoring")
        limit = self.rules.get("limit")
        details: dict[str, Any] = {"scoring": method}
        if method == "chips" and limit is not None:
            details["chips"] = {p: limit + t for p, t in self.totals.items()}
        return details


# -- random legal play (tests, demo data) ------------------------------------------------


def random_deal(rng: random.Random, players: list[str], deals_by: str) -> dict[str, Any]:
    """A full-play record of one game played by random legal choices."""
    pack = list(standard_deck())
    rng.shuffle(pack)
    n = len(players)
    hands = {p: [BY_CODE[c] for c in pack[i * HAND : (i + 1) * HAND]] for i, p in enumerate(players)}  # fmt: skip
    start = pack[n * HAND]
    stock = pack[n * HAND + 1 :]
    record: dict[str, Any] = {
        "game": "1234",
        "players": list(players),
        "dealer": deals_by,
        "hands": {p: [c.code for c in h] for p, h in hands.items()},
        "start": start,
        "stock": list(stock),
    }
    last = value(BY_CODE[start])
    turns: list[dict[str, Any]] = []
    dropped: list[str] = []
    turn = after(players, deals_by)
    top = 0
    while True:
        plays, passes = options(hands[turn], last)
        if not plays and not passes:
            turns.append({"player": turn, "drop": True})
            dropped.append(turn)
            if len(dropped) == n - 1:
                break
        else:
            kind = "play" if plays and (not passes or rng.random() < 0.8) else "pass"
            cards = rng.choice(plays if kind == "play" else passes)
            if kind == "play":
                last = sum(value(c) for c in cards)
            for c in cards:
                hands[turn].remove(c)
            need = min(DRAW, HAND - len(hands[turn]))
            hands[turn].extend(BY_CODE[c] for c in stock[top : top + need])
            top += need
            turns.append({"player": turn, kind: [c.code for c in cards]})
            if top >= len(stock):
                break
        turn = after(players, turn)
        while turn in dropped:
            turn = after(players, turn)
    record["turns"] = turns
    return record
