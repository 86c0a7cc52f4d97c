"""Bhabhi: a game replayed round by round from its full-play record (random legal games
are in ``engine.games.bhabhi_random``).  The rules, the special rules and the decisions
taken where the book is silent are in ``engine.games.bhabhi``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.cards import BY_CODE, Card, Suit, standard_deck
from engine.games.common import one_card, play_object, take
from engine.problems import Checker, gettext_noop, join

OPENER = BY_CODE["SA"]
"""The card that leads the first round."""


class Replay:
    """One game replayed round by round."""

    def __init__(self, players: list[str], rules: Mapping[str, Any], checker: Checker) -> None:
        self.players = players
        self.rules = rules
        self.checker = checker
        self.hands: dict[str, list[Card]] = {}
        self.left: list[str] = list(players)
        self.out: list[str] = []
        self.discards: list[Card] = []
        self.loser: str | None = None
        self.shooter: str | None = None

    def after(self, player: str) -> str:
        """The next player still in, round from ``player`` (who may be out already)."""
        i = self.players.index(player)
        for step in range(1, len(self.players) + 1):
            nxt = self.players[(i + step) % len(self.players)]
            if nxt in self.left:
                return nxt
        return player

    def run(self, record: Mapping[str, Any]) -> tuple[str, list[str]] | None:
        c = self.checker
        n = len(self.players)
        raw = c.per_player(c.require(record, "hands"), self.players, "hands")
        rounds = c.typed(c.require(record, "rounds"), list, "rounds")
        if raw is None or rounds is None:
            return None
        for p, value in raw.items():
            cards = c.cards(value, join("hands", p))
            if cards is not None:
                if len(cards) not in (52 // n, -(-52 // n)):
                    c.add(
                        "wrong_card_count",
                        join("hands", p),
                        gettext_noop(
                            "with %(n)s players a hand is dealt %(number)s or %(value)s cards"
                        ),
                        n=n,
                        number=52 // n,
                        value=-(-52 // n),
                    )
                self.hands[p] = cards
        if len(self.hands) != n or not c.ok:
            return None
        placed = [
            (join(join("hands", p), i), x)
            for p in self.players
            for i, x in enumerate(self.hands[p])
        ]
        c.deck_counts(placed, standard_deck())
        if not c.ok:
            return None
        if len(placed) != 52:
            c.add(
                "incomplete_deck",
                "hands",
                gettext_noop("the hands hold %(n_placed)s cards, not 52"),
                n_placed=len(placed),
            )
            return None
        leader = next(p for p in self.players if OPENER in self.hands[p])
        for r, item in enumerate(rounds):
            path = join("rounds", r)
            if self.loser is not None:
                c.add(
                    "deal_over",
                    path,
                    gettext_noop("the game was over: %(loser)s is the bhabhi"),
                    loser=self.loser,
                )
                return None
            nxt = self.round(item, path, r, leader)
            if nxt is None:
                return None
            leader = nxt
        if self.loser is None:
            c.add(
                "deal_not_over",
                "rounds",
                gettext_noop("the game goes on: %(names)s still hold cards"),
                names=", ".join(self.left),
            )
            return None
        return self.loser, self.out

    def go_out(self, player: str) -> None:
        self.left.remove(player)
        self.out.append(player)
        if len(self.left) == 1:
            self.loser = self.left[0]

    def takes(self, item: Mapping[str, Any], path: str, leader: str) -> str | None:
        c = self.checker
        raw = c.typed(item.get("takes", []), list, join(path, "takes"))
        if raw is None:
            return None
        if raw and self.rules.get("take_hand") is None:
            c.add(
                "not_applicable",
                join(path, "takes"),
                gettext_noop("taking a hand needs rules.take_hand"),
            )
            return None
        for i, value in enumerate(raw):
            tpath = join(join(path, "takes"), i)
            obj = play_object(value, tpath, self.left, None, c)
            if obj is None:
                return None
            who = str(obj["player"])
            giver = c.player(c.require(obj, "from", tpath), self.left, join(tpath, "from"))
            if giver is None:
                return None
            if giver == who or (self.rules["take_hand"] == "left" and giver != self.after(who)):
                c.add(
                    "illegal_take",
                    join(tpath, "from"),
                    gettext_noop("%(who)s may take the hand of %(value)s only"),
                    who=who,
                    value=self.after(who),
                )
                return None
            self.hands[who].extend(self.hands[giver])
            self.hands[giver] = []
            self.go_out(giver)
            if giver == leader:
                leader = who if OPENER in self.hands[who] else self.after(giver)
            if self.loser is not None:
                return leader
        return leader

    def lead_card(self, play: Mapping[str, Any], who: str, path: str, first: bool) -> Card | None:
        """The lead, from the hand or (shoot-out, Singh) from the discards or a player's hand."""
        c = self.checker
        card = one_card(play, path, c)
        if card is None:
            return None
        source = play.get("from")
        if source is None:
            if first and card != OPENER:
                c.add(
                    "wrong_lead", join(path, "card"), gettext_noop("the first round is led with ♠A")
                )
                return None
            return card if take(self.hands[who], [card], who, join(path, "card"), c) else None
        if self.hands[who]:
            c.add(
                "not_applicable",
                join(path, "from"),
                gettext_noop("%(who)s still holds cards and leads from them"),
                who=who,
            )
            return None
        if source == "discards" and (self.rules["shootout"] or self.rules["lead_when_empty"]):
            if card not in self.discards:
                c.add(
                    "card_not_held",
                    join(path, "card"),
                    gettext_noop("%(code_)s is not in the discards"),
                    code_=card.code,
                )
                return None
            self.discards.remove(card)
            return card
        if self.rules["lead_when_empty"] and source in self.left and source != who:
            giver = str(source)
            if not take(self.hands[giver], [card], giver, join(path, "card"), c):
                return None
            if not self.hands[giver]:
                self.go_out(giver)  # their last card was drawn: no cards, out
            return card
        c.add(
            "not_applicable",
            join(path, "from"),
            gettext_noop(
                "a lead from the discards or another hand needs the shoot-out or lead_when_empty rule"
            ),
        )
        return None

    def round(self, item: Any, path: str, r: int, leader: str) -> str | None:
        c = self.checker
        obj = c.typed(item, dict, path)
        if obj is None:
            return None
        c.known_keys(obj, ("takes", "plays"), path)
        nxt_leader = self.takes(obj, path, leader)
        if nxt_leader is None:
            return None
        return self.plays(obj, path, r, nxt_leader)

    def plays(self, obj: Mapping[str, Any], path: str, r: int, leader: str) -> str | None:
        """The round's plays from ``leader`` (after any takes) and their judgement."""
        c = self.checker
        plays = c.typed(obj.get("plays", []), list, join(path, "plays"))
        if plays is None:
            return None
        if self.loser is not None:
            if plays:
                c.add(
                    "deal_over",
                    join(path, "plays"),
                    gettext_noop("the game was over: %(loser)s is the bhabhi"),
                    loser=self.loser,
                )
            return leader
        table: list[tuple[str, Card]] = []
        first_round = r == 0 and self.rules["first_round"]
        failed: str | None = None
        extra: str | None = None
        who = leader
        for k, raw in enumerate(plays):
            ppath = join(join(path, "plays"), k)
            if k > 0:
                who = self.after(who)
            if k >= len(self.left) or (
                failed is not None
                and not first_round
                and (extra is not None or not self.rules["extra_play"] or who != self.after(failed))
            ):
                c.add("round_over", ppath, gettext_noop("the round was over before this play"))
                return None
            play = play_object(raw, ppath, self.players, who, c)
            if play is None:
                return None
            if k == 0:
                card = self.lead_card(play, who, ppath, r == 0)
                if card is None:
                    return None
            else:
                card = one_card(play, ppath, c)
                if card is None:
                    return None
                led = table[0][1].suit
                if card.suit != led and any(x.suit == led for x in self.hands[who]):
                    c.add(
                        "revoke",
                        join(ppath, "card"),
                        gettext_noop("%(who)s holds %(suit)s and must follow"),
                        who=who,
                        suit=_suit(led),
                    )
                    return None
                if not take(self.hands[who], [card], who, join(ppath, "card"), c):
                    return None
                if failed is not None and not first_round:
                    extra = who
                elif card.suit != led:
                    failed = who
            table.append((who, card))
        if failed is None and len(table) < len(self.left):
            c.add(
                "wrong_play_count",
                join(path, "plays"),
                gettext_noop("every one of %(names)s plays unless someone cannot follow"),
                names=", ".join(self.left),
            )
            return None
        if first_round and len(table) < len(self.left):
            c.add(
                "wrong_play_count",
                join(path, "plays"),
                gettext_noop("the first round goes on to everyone (first_round rule)"),
            )
            return None
        return self.judge(table, failed, extra, first_round)

    def judge(
        self,
        table: list[tuple[str, Card]],
        failed: str | None,
        extra: str | None,
        first_round: bool,
    ) -> str:
        led = table[0][1].suit
        high = max((x for x in table if x[1].suit == led), key=lambda x: x[1].strength)[0]
        if self.shooter is not None:
            return self.shootout_round(table, high)
        if extra is not None:
            high = extra
        picks_up = extra is not None or (failed is not None and not first_round)
        cards = [card for _, card in table]
        if picks_up:
            self.hands[high].extend(cards)
        else:
            self.discards.extend(cards)
        empty = [p for p in self.players if p in self.left and not self.hands[p]]
        if self.rules["shootout"] and len(self.left) == 2 and len(empty) == 1 and len(table) == 2:
            last = empty[0]
            if high == last and not picks_up:
                for card in cards:  # the two cards leave the game
                    self.discards.remove(card)
                self.shooter = last
                return last
        if len(empty) == len(self.left):
            self.loser = high
            self.out.extend(p for p in self.left if p != high)
            self.left = [high]
            return high
        for player in empty:
            if self.rules["lead_when_empty"] and player == high:
                continue
            self.go_out(player)
        return high if high in self.left else self.after(high)

    def shootout_round(self, table: list[tuple[str, Card]], high: str) -> str:
        shooter = self.shooter or high
        follower = next(p for p in self.left if p != shooter)
        if len(table) < 2 or table[1][1].suit != table[0][1].suit:
            self.loser = shooter
        elif high == follower:
            self.loser = follower
        elif not self.hands[follower] or not self.discards:
            self.loser = follower if self.hands[follower] else shooter
        if self.loser is not None:
            winner = follower if self.loser == shooter else shooter
            self.left = [self.loser]
            self.out.append(winner)
        return shooter


def _suit(suit: Suit | None) -> str:
    return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}.get(suit.value if suit else "", "?")
