"""A match continued from its snapshot, one deal at a time, is the match replayed.

The league keeps each match's snapshot with the match (JSON in the database) and
checks the next deal with :func:`engine.add_deal` instead of replaying every deal
before it; these tests hold that the two ways can never disagree.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.deal import play_match


def _match(game: str, players: list[str]) -> dict:
    return {"game": game, "players": players, "rules": {}}


@settings(max_examples=16, deadline=None)
@given(seed=st.integers(0, 10**9), game=st.sampled_from(sorted(engine.GAMES)))
def test_stepping_through_json_snapshots_agrees_with_check_match(seed, game):
    rules = engine.GAMES[game]
    rng = random.Random(seed)
    players = [f"P{i}" for i in range(rng.choice(sorted(rules.player_counts)))]
    deals = play_match(rules, rng, players, most=8)
    record = _match(game, players)
    snapshot = None
    for i, deal in enumerate(deals):
        inherited = engine.next_deal(record, snapshot)
        replayed = engine.check_match({**record, "deals": deals[:i]})
        assert inherited == replayed.next_deal
        step = engine.add_deal(record, snapshot, deal)
        assert step.valid, [e.to_dict() for e in step.errors]
        snapshot = json.loads(json.dumps(step.snapshot))  # as the database keeps it
        whole = engine.check_match({**record, "deals": deals[: i + 1]})
        assert step.result.scores == whole.deals[-1].scores
        assert step.finished == whole.finished
        assert snapshot == whole.snapshot


def test_a_deal_after_the_match_is_decided_is_refused_from_the_snapshot():
    rng = random.Random(3)
    players = ["a", "b", "c", "d"]
    deals = play_match(engine.GAMES["comrade"], rng, players)
    whole = engine.check_match({**_match("comrade", players), "deals": deals})
    assert whole.finished
    extra = engine.GAMES["comrade"].random_deal(
        rng, engine.GAMES["comrade"].new_match(players, {}, None)
    )
    step = engine.add_deal(_match("comrade", players), whole.snapshot, extra)
    assert not step.valid
    assert step.snapshot == whole.snapshot  # a refused deal changes nothing


def test_a_refused_deal_reports_the_same_problems_as_check_match():
    players = ["a", "b", "c", "d"]
    deals = play_match(engine.GAMES["1234"], random.Random(5), players, most=2)
    wrong = {**deals[1], "dealer": "zz"}
    whole = engine.check_match({**_match("1234", players), "deals": [deals[0], wrong]})
    first = engine.check_match({**_match("1234", players), "deals": deals[:1]})
    step = engine.add_deal(_match("1234", players), first.snapshot, wrong)
    assert [(e.code, "deals[1]." + e.path if e.path else "deals[1]") for e in step.errors] == [
        (e.code, e.path) for e in whole.errors
    ]
    assert step.snapshot == first.snapshot


def test_a_match_record_that_is_not_valid_in_itself_cannot_be_continued():
    with pytest.raises(engine.NotARecord):
        engine.add_deal({"game": "napoleon", "players": ["a"]}, None, {})
