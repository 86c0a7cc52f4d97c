"""Bhabhi: random legal full-play games, for the demo club, the tests and the benchmarks.

The choices are the generator's (follow suit when able, take a hand now and then, make
the extra play, lead from the discards or a hand when empty); the engine's
:class:`~engine.games.bhabhi_play.Replay` carries them out round by round, so every game
is one the replay accepts.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engine.cards import BY_CODE, standard_deck
from engine.games.bhabhi_play import OPENER, Replay
from engine.problems import Checker, join


def random_game(
    rng: random.Random, players: list[str], given: dict[str, Any], checked: Mapping[str, Any]
) -> dict[str, Any]:
    """A full-play record of one game by random legal choices, under the rules ``given``
    (as the record keeps them; ``checked``: the same with every default filled in)."""
    checker = Checker()
    pack = list(standard_deck())
    rng.shuffle(pack)
    n = len(players)
    record: dict[str, Any] = {
        "game": "bhabhi",
        "players": list(players),
        "rules": given,
        "hands": {p: pack[i::n] for i, p in enumerate(players)},
    }
    replay = Replay(players, checked, checker)
    replay.hands = {p: [BY_CODE[c] for c in record["hands"][p]] for p in players}
    leader: str | None = next(p for p in players if OPENER in replay.hands[p])
    rounds: list[dict[str, Any]] = []
    while replay.loser is None and leader is not None and len(rounds) < 2000:
        path = join("rounds", len(rounds))
        item: dict[str, Any] = {}
        mode = checked["take_hand"]
        if mode and len(replay.left) > 2 and rng.random() < 0.05:
            taker = rng.choice(replay.left)
            giver = (
                replay.after(taker)
                if mode == "left"
                else rng.choice([p for p in replay.left if p != taker])
            )
            item["takes"] = [{"player": taker, "from": giver}]
            leader = replay.takes(item, path, leader)
        if leader is not None and replay.loser is None:
            item["plays"] = _random_plays(rng, replay, leader, len(rounds))
        rounds.append(item)
        if leader is not None:
            leader = replay.plays(item, path, len(rounds) - 1, leader)
    record["rounds"] = rounds
    return record


def _random_plays(rng: random.Random, replay: Replay, leader: str, r: int) -> list[dict[str, Any]]:
    rules = replay.rules
    hands = {p: list(replay.hands[p]) for p in replay.left}
    hand = hands[leader]
    lead: dict[str, Any] = {"player": leader}
    if r == 0:
        card = OPENER
    elif hand:
        card = rng.choice(hand)
    else:  # an empty leader: the shoot-out or lead_when_empty
        sources = ["discards"] if replay.discards else []
        if rules["lead_when_empty"] and replay.shooter is None:
            sources += [p for p in replay.left if p != leader and hands[p]]
        source = rng.choice(sources)
        card = rng.choice(replay.discards if source == "discards" else hands[source])
        if source != "discards":
            hands[source].remove(card)
        lead["from"] = source
    lead["card"] = card.code
    plays = [lead]
    left = [p for p in replay.players if p in replay.left and (p == leader or hands[p])]
    who = leader
    failed = False
    first_round = r == 0 and rules["first_round"]
    while len(plays) < len(left):
        if failed and not first_round and (not rules["extra_play"] or rng.random() < 0.5):
            break
        who = left[(left.index(who) + 1) % len(left)]
        suited = [c for c in hands[who] if c.suit == card.suit]
        pick = rng.choice(suited or hands[who])
        plays.append({"player": who, "card": pick.code})
        if failed and not first_round:
            break  # the extra play ends the round
        failed = failed or not suited
    return plays
