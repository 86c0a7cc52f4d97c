"""Bhabhi (India): follow suit or end the round; the last player holding cards is the bhabhi.

Rulebook: ../shared/rules/002_…twentytwo-1234-bhabhi.txt, 「Bhabhi」.

A game (one deal record): the whole deck dealt, ♠A leads the first round, the
others follow suit in order of play (``players``).  When everyone followed, the
highest card of the led suit leads the next round and the cards are discarded.
A player who cannot follow plays any card and ends the round at once: the
highest card of the led suit picks up every card on the table and leads next.
Players whose hand is empty after a round are out (they win); when one is
left, that one is the bhabhi.  A leader who is out passes the lead to the next
player still in.  Scores: the bhabhi −1, everyone else 0.

Special rules (``rules``, all off by default):

- ``first_round`` (Klassen 1): the first round goes on to everyone after a
  failure to follow, and its cards are discarded; the highest ♠ leads.
- ``take_hand`` ``"left"`` (Klassen 2) or ``"any"`` (Singh): before a round's
  lead a player may take the whole hand of the next player still in on the left
  (``any``: of any player still in), who is then out.  Written
  ``"takes": [{"player": X, "from": Y}]`` on the round.
- ``extra_play`` (Klassen 3): after a failure to follow, the next player may play
  one more card (following suit if able); if so that player picks up everything
  and leads next.
- ``shootout`` (Klassen 4): two players left, one plays their last card and
  beats the other's card of the same suit: instead of going out they lead from
  the discards (``"from": "discards"``).  A lead that beats the follow goes on;
  a weaker lead makes the follower the bhabhi; a follower who cannot follow
  makes the shooter the bhabhi.
- ``lead_when_empty`` (Singh): the player to lead never goes out; with no cards
  they lead a card from the discards (``"from": "discards"``) or drawn from
  another player's hand (``"from": player``); a player whose last card is
  drawn that way has no cards left and is out at once.

Decisions: when a round empties every hand still in, the player with the
highest card of the led suit is the bhabhi.  In a shootout, an empty discard
pile, or a follower playing their last card under a stronger lead, ends it
with the shooter going free and the follower as the bhabhi, respectively the
shooter as the bhabhi.  A match is a series of games, ``target`` of them
(open-ended without); the fewest times bhabhi rank first.

What a summary can never say (issue 18): the bhabhi among those out (the last
player holding cards never goes out); a player out twice or never.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.game import DealResult, Game, Scored
from engine.games.bhabhi_play import Replay
from engine.games.bhabhi_random import random_game
from engine.match import MatchState
from engine.problems import MISSING, Checker, gettext_noop, join

FULL_PLAY_KEYS = frozenset({"hands", "rounds"})
TAKE_HAND = ("left", "any")
FLAGS = ("first_round", "extra_play", "shootout", "lead_when_empty")


class Bhabhi(Game):
    name = "bhabhi"
    player_counts = frozenset(range(2, 8))
    deal_keys = frozenset({"bhabhi", "out"}) | FULL_PLAY_KEYS
    rule_names = frozenset({"take_hand", *FLAGS})
    inherited_keys = frozenset({"rules"})
    accepts_target = True
    best_players = 5

    def random_deal(self, rng: random.Random, state: MatchState) -> dict[str, Any] | None:
        return random_deal(rng, list(state.players), state.rules)

    def check_rules(self, rules: Mapping[str, Any], checker: Checker, path: str) -> dict[str, Any]:
        checked: dict[str, Any] = {}
        for flag in FLAGS:
            checked[flag] = bool(checker.typed(rules.get(flag, False), bool, join(path, flag)))
        take_hand = rules.get("take_hand")
        if take_hand is not None and take_hand not in TAKE_HAND:
            checker.add("out_of_range", join(path, "take_hand"), gettext_noop("left or any"))
        checked["take_hand"] = take_hand
        return checked

    def is_finished(self, side_totals: Any, deals_played: int, target: int | None) -> bool:
        return target is not None and deals_played >= target

    def summary(self, record: Mapping[str, Any], result: DealResult) -> dict[str, Any]:
        return {"bhabhi": result.details["bhabhi"], "out": result.details["out"]}

    def score_deal(
        self, record: Mapping[str, Any], players: list[str], rules: dict[str, Any], checker: Checker
    ) -> Scored | None:
        details: dict[str, Any] = {}
        if not FULL_PLAY_KEYS.isdisjoint(record):
            played = Replay(players, rules, checker).run(record)
            if played is None:
                return None
            loser, out = played
            for key, derived in (("bhabhi", loser), ("out", out)):
                checker.agrees(key, record.get(key, MISSING), derived)
        else:
            read = _summary(record, players, checker)
            if read is None:
                return None
            loser, out = read
        if not checker.ok:
            return None
        details.update({"bhabhi": loser, "out": out})
        scores = {p: -1 if p == loser else 0 for p in players}
        return Scored(scores, tuple(p for p in players if p != loser), details)


def _summary(
    record: Mapping[str, Any], players: list[str], checker: Checker
) -> tuple[str, list[str]] | None:
    loser = checker.player(checker.require(record, "bhabhi"), players, "bhabhi")
    if loser is None:
        return None
    if "out" not in record:
        return loser, [p for p in players if p != loser]
    raw = checker.typed(record["out"], list, "out")
    if raw is None:
        return None
    out: list[str] = []
    for i, value in enumerate(raw):
        who = checker.player(value, players, join("out", i))
        if who == loser:
            checker.add(
                "wrong_bhabhi",
                join("out", i),
                gettext_noop("%(who)s is the bhabhi and never goes out"),
                who=who,
            )
        elif who in out:
            checker.add(
                "duplicate_player", join("out", i), gettext_noop("%(who)s goes out once"), who=who
            )
        elif who is not None:
            out.append(who)
    if checker.ok and len(out) != len(players) - 1:
        missing = [p for p in players if p != loser and p not in out]
        checker.add(
            "missing_player",
            "out",
            gettext_noop("%(names)s never went out"),
            names=", ".join(missing),
        )
    return (loser, out) if checker.ok else None


def random_deal(
    rng: random.Random, players: list[str], rules: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A full-play record of one game by random legal choices, under any of the rules
    (given as a record would give them; played by ``bhabhi_random.random_game``)."""
    given = dict(rules or {})
    checked = Bhabhi().check_rules(given, Checker(), "rules")
    return random_game(rng, players, given, checked)
