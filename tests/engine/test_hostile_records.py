"""Broken records reach deep into every game's checks and still get errors, never an exception.

A scorer's phone, an import or an API client can send any JSON.  Random JSON
(hypothesis, below) is mostly refused at the top of a record; the record breaker starts
from legal deals and matches of every game (the engine's own random play) and break one
to three places deep inside them: a value of the wrong type, a list item dropped or
repeated, a name or a card moved to where it does not belong.  Every answer must be a
result whose errors each have a code and a message.

The mutations are seeded, so a failure here is the same on every machine; ``make fuzz``
runs many more of them with a fresh seed (``FUZZ_SEED``, ``FUZZ_ROUNDS``).
"""

from __future__ import annotations

import copy
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.deal import play_match

ROUNDS = int(os.environ.get("FUZZ_ROUNDS", "400"))
SEED = int(os.environ.get("FUZZ_SEED", "0"))

HOSTILE: list[Any] = [None, True, 0, -1, 1.5, 10**20, "", "x", "♠A", [], [None], [None, None],
                      [1, "a"], [[None]], {}, {"a": None}, {"": 1}, [{"a": 1}], ["a", None],
                      [["a"], [None]], {"x": [None, None]}]  # fmt: skip
TOKENS: list[Any] = ["P0", "P1", "P7", "SA", "S2", "JK", "HQ", "C10", "spades", "notrump",
                     0, 1, 2, 3, 13, 22, 99, -5, True, False]  # fmt: skip


def corpus(game: str) -> list[dict[str, Any]]:
    """Legal deal records (full play and summary) and match records of ``game``."""
    rules = engine.GAMES[game]
    records: list[dict[str, Any]] = []
    for n in sorted(rules.player_counts):
        players = [f"P{i}" for i in range(n)]
        deals = play_match(rules, random.Random(n), players, most=3)
        records.append({"game": game, "players": players, "deals": deals})
        for deal in deals:
            records += [deal, engine.summarize(deal)]
    return records


def places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield path
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, item in items:
        yield from places(item, (*path, key))


def leaves(value: Any) -> Iterator[Any]:
    if isinstance(value, dict | list):
        for item in value.values() if isinstance(value, dict) else value:
            yield from leaves(item)
    else:
        yield value


def broken(original: Any, record: dict[str, Any], rng: random.Random) -> Any:
    """``original`` (a value inside ``record``) made wrong in one of several ways."""
    roll = rng.random()
    if roll < 0.3:
        return rng.choice([*leaves(record), *TOKENS])  # a name, a card, a number out of place
    if isinstance(original, list) and original and roll < 0.55:
        changed = list(original)
        if roll < 0.4:
            del changed[rng.randrange(len(changed))]
        elif roll < 0.5:
            changed.insert(rng.randrange(len(changed)), rng.choice(changed))
        else:
            changed[rng.randrange(len(changed))] = rng.choice(HOSTILE)
        return changed
    if isinstance(original, dict) and original and roll < 0.55:
        changed = dict(original)
        key = rng.choice(list(changed))
        if roll < 0.45:
            del changed[key]
        else:
            changed[key] = rng.choice(HOSTILE)
        return changed
    return rng.choice(HOSTILE)


def mutated(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    record = copy.deepcopy(record)
    for _ in range(rng.choice((1, 1, 2, 3))):
        *parent_path, key = rng.choice(list(places(record))[1:])
        parent = record
        for step in parent_path:
            parent = parent[step]
        parent[key] = copy.deepcopy(broken(parent[key], record, rng))
    return record


def answer(record: dict[str, Any]) -> list[engine.Problem]:
    """The errors of ``record`` read as a deal and as a match; an exception fails the test."""
    problems: list[engine.Problem] = []
    for check in (engine.check, engine.check_match):
        try:
            result = check(record)
        except engine.NotARecord:
            continue
        assert isinstance(result.valid, bool)
        problems += result.errors
    return problems


@pytest.mark.parametrize("game", sorted(engine.GAMES))
def test_records_broken_deep_inside_get_errors_never_an_exception(game):
    records = corpus(game)
    rng = random.Random(f"{SEED}-{game}")
    refused = 0
    for _ in range(ROUNDS):
        record = mutated(rng.choice(records), rng)
        try:
            problems = answer(record)
        except Exception as error:  # the record, to reproduce what broke
            message = f"{type(error).__name__} (FUZZ_SEED={SEED}) on {record!r:.2000}"
            raise AssertionError(message) from error
        assert all(p.code and p.message and isinstance(p.path, str) for p in problems)
        refused += bool(problems)
    assert refused > ROUNDS // 4  # the mutations do break records: this test reaches the checks


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)
record_keys = st.sampled_from(
    [
        "game",
        "players",
        "rules",
        "declaration",
        "adjutant_cards",
        "adjutants",
        "point_cards",
        "discarded_point_cards",
        "captured",
        "hand_faces",
        "packs",
        "teams",
        "hands",
        "widow",
        "discards",
        "tricks",
        "stock",
        "moves",
        "turns",
        "table",
        "dealer",
        "dealer_card",
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    game=st.sampled_from(["napoleon", "rettler", "comp13", "packing"]),
    players=st.lists(st.text(min_size=1, max_size=3), min_size=0, max_size=9) | json_values,
    fields=st.dictionaries(record_keys, json_values, max_size=6),
)
def test_the_engine_answers_any_json_with_a_result_never_an_exception(game, players, fields):
    """hypothesis throws arbitrary JSON at the record reader of every game."""
    problems = answer({"game": game, "players": players, **fields})
    assert all(p.code and p.message for p in problems)


# The first records the mutations broke the engine with, each kept as a plain example.


def test_a_packing_team_of_non_names_is_wrong_teams():
    packs = {"N": [["HA", "H5"]], "E": [["SK", "S2"]], "S": [], "W": []}
    for teams in ([[None], [None]], [["N", "S"], ["E", 1.5]], [["N", {}], ["E", "W"]]):
        record = {"game": "packing", "players": ["N", "E", "S", "W"], "packs": packs}
        result = engine.check({**record, "teams": teams})
        assert [(e.code, e.path) for e in result.errors] == [("wrong_teams", "teams")]


def test_a_deal_of_other_players_in_a_match_is_refused_and_counts_for_no_one():
    players = ["P0", "P1", "P2"]
    deals = play_match(engine.GAMES["bhabhi"], random.Random(3), players, most=2)
    record = {"game": "bhabhi", "players": ["P0", "X", "P2"], "deals": deals}
    result = engine.check_match(record)
    assert not result.valid
    assert {(e.code, e.path) for e in result.errors} == {
        ("players_mismatch", "deals[0].players"),
        ("players_mismatch", "deals[1].players"),
    }
    assert {(s.player, s.total, s.deals) for s in result.standings} == {
        ("P0", 0, 0),
        ("X", 0, 0),
        ("P2", 0, 0),
    }


@pytest.mark.parametrize("suit", [["spades"], {"name": "spades"}, None, 3])
def test_a_joker_lead_naming_its_suit_with_a_non_string_is_unknown_suit(suit):
    for seed in range(200):  # the first legal Napoleon deal whose play has a lead naming a suit
        deal = play_match(
            engine.GAMES["napoleon"], random.Random(seed), ["A", "B", "C", "D"], most=1
        )[0]
        named = [
            (t, i)
            for t, trick in enumerate(deal["tricks"])
            for i, play in enumerate(trick["plays"])
            if "suit" in play
        ]
        if named:
            break
    trick, play = named[0]
    deal["tricks"][trick]["plays"][play]["suit"] = suit
    codes = {e.code for e in engine.check(deal).errors}
    assert "unknown_suit" in codes


@pytest.mark.parametrize("suit", [["hearts"], {"a": None}])
def test_a_comrade_joker_bid_naming_its_suit_with_a_non_string_is_unknown_suit(suit):
    players = [f"P{i}" for i in range(5)]
    for seed in range(200):  # the first legal deal with a joker bid
        deal = play_match(engine.GAMES["comrade"], random.Random(seed), players, most=1)[0]
        jokers = [i for i, bid in enumerate(deal["bidding"]) if "suit" in bid]
        if jokers:
            break
    deal["bidding"][jokers[0]]["suit"] = suit
    codes = {e.code for e in engine.check(deal).errors}
    assert codes == {"unknown_suit"}
