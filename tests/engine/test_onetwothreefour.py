"""1234: plays, the five passes, drop-outs, refills, both endings, the three scoring methods."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.cards import Card, standard_deck
from engine.games.onetwothreefour_play import is_pass, options, random_deal

P3 = ["A", "B", "C"]


def cards(text):
    return [Card(c) for c in text.split()]


def codes(result):
    return [e.code for e in result.errors]


@pytest.mark.parametrize(
    ("hand", "ok"),
    [
        ("SA", True),
        ("S2", False),
        ("S3 H3 DK", True),
        ("S3 H3 D4", False),
        ("S3 H4 DK", False),
        ("SJ HJ DK", False),
        ("S2 S9 SK", True),
        ("S2 H2 D2", True),
        ("SQ HQ CQ", True),
        ("S3 H3 D5 C5", True),
        ("S3 H3 D3 C3", True),
        ("SJ HJ D5 C5", False),
        ("S3 H3 D5 C6", False),
        ("SA HA", False),
    ],
)
def test_the_five_pass_combinations(hand, ok):
    assert is_pass(cards(hand)) is ok


def test_a_play_adds_up_to_one_to_four_above_the_last_number():
    plays, _ = options(cards("S2 H3 D9 CK"), 10)
    sums = sorted({sum(1 if c.rank == "A" else c.strength for c in p) for p in plays})
    assert sums == [11, 12, 13, 14]
    assert ["CK"] in [[c.code for c in p] for p in plays]


def deal(turns, hands, start="D10", dealer="C", players=P3, stock=None, **kw):
    used = {c for h in hands.values() for c in h.split()} | {start}
    rest = [c for c in standard_deck() if c not in used]
    return {
        "game": "1234",
        "players": players,
        "dealer": dealer,
        "start": start,
        "hands": {p: h.split() for p, h in hands.items()},
        "stock": stock if stock is not None else rest,
        "turns": turns,
        **kw,
    }


HANDS = {"A": "HQ S3 S6 S5 C2", "B": "H2 H4 C4 D4 C5", "C": "SK HK DK CK S9"}


def test_turns_go_in_order_of_play_from_after_the_dealer():
    record = deal([{"player": "B", "play": ["H2"]}], HANDS)
    assert codes(engine.check(record)) == ["wrong_order"]


def test_a_play_out_of_range_is_refused_with_the_range():
    record = deal([{"player": "A", "play": ["HQ", "S3"]}], HANDS)
    result = engine.check(record)
    assert codes(result) == ["illegal_play"]
    assert "11 to 14" in result.errors[0].message


def test_a_pass_must_be_one_of_the_combinations():
    record = deal([{"player": "A", "pass": ["S3", "S6"]}], HANDS)
    assert codes(engine.check(record)) == ["illegal_pass"]


def test_a_drop_out_only_when_nothing_is_possible():
    record = deal([{"player": "A", "drop": True}], HANDS)
    assert codes(engine.check(record)) == ["could_play"]


def test_the_rulebook_example_and_refilling_towards_five():
    """Start 10, Q (12) played, then 3+6+5 = 14: the next needs 15 to 18."""
    turns = [{"player": "A", "play": ["HQ"]},  # A draws one card, back to five
             {"player": "B", "pass": ["C4", "D4", "H4"]},  # three of a rank; B draws three
             {"player": "C", "drop": True}]  # fmt: skip
    assert codes(engine.check(deal(turns, HANDS))) == ["could_play"]  # three kings are a pass
    turns[2] = {"player": "C", "play": ["S9", "SK"]}  # 22: out of range
    assert codes(engine.check(deal(turns, HANDS))) == ["illegal_play"]
    turns[2] = {"player": "C", "pass": ["SK", "HK", "DK"]}
    turns.append({"player": "A", "play": ["S3", "S6", "S5"]})  # 14 after the Q
    turns.append({"player": "B", "play": ["H2", "C5"]})  # 7: below 15
    result = engine.check(deal(turns, HANDS))
    assert codes(result) == ["illegal_play"]
    assert "15 to 18" in result.errors[0].message
    turns[-1] = {"player": "B", "pass": ["H2", "C5"]}
    assert codes(engine.check(deal(turns, HANDS))) == ["illegal_pass"]


def test_a_refill_never_goes_above_five_and_draws_from_the_top():
    rest = [c for c in standard_deck() if c not in {*" ".join(HANDS.values()).split(), "D10"}]
    turns = [
        {"player": "A", "play": ["HQ"]},
        {"player": "B", "pass": ["C4", "D4", "H4"]},
        {"player": "C", "pass": ["SK", "HK", "DK"]},
        {"player": "A", "pass": [rest[1]]},
    ]
    # A drew only rest[0] after the Q (one card: back to five); B drew rest[1:4], C rest[4:7].
    result = engine.check(deal(turns, HANDS, stock=rest))
    assert codes(result) == ["card_not_held"]
    assert rest[1] in result.errors[0].message


@pytest.mark.parametrize(
    ("method", "scores"),
    [
        ("winner_plus", {"A": 0, "B": 0, "C": 20}),
        ("loser_minus", {"A": -9, "B": -11, "C": 0}),
        ("chips", {"A": -9, "B": -11, "C": 20}),
    ],
)
def test_the_three_scoring_methods(method, scores):
    record = {
        "game": "1234",
        "players": P3,
        "dealer": "C",
        "rules": {"scoring": method},
        "winner": "C",
        "hands_left": {"A": ["S3", "S6"], "B": ["H2", "H9"], "C": ["DK", "D9"]},
    }
    assert engine.check(record).scores == scores


def test_the_last_player_left_wins_and_drop_outs_keep_their_cards():
    hands = {"A": "H2 H3 H5 H6 H7", "B": "S2 S3 S4 S5 S6"}
    turns = [{"player": "A", "drop": True}]
    record = deal(turns, hands, start="DK", dealer="B", players=["A", "B"])
    assert codes(engine.check(record)) == ["could_play"]  # three hearts are a pass
    hands = {"A": "S9 H10 DJ CQ SK", "B": "S2 C3 S4 S5 S6"}  # 14–17 is out of reach, no pass
    result = engine.check(deal(turns, hands, start="DK", dealer="B", players=["A", "B"]))
    assert result.valid, result.errors
    assert result.details["winner"] == "B"
    assert result.details["dropped"] == ["A"]
    assert result.details["ended"] == "last_player"
    assert result.scores == {"A": 0, "B": 55}


def test_turns_after_the_end_and_a_game_left_unfinished():
    hands = {"A": "S9 H10 DJ CQ SK", "B": "S2 C3 S4 S5 S6"}
    turns = [{"player": "A", "drop": True}, {"player": "B", "pass": ["S2", "S4", "S5"]}]
    assert codes(engine.check(deal(turns, hands, start="DK", dealer="B", players=["A", "B"]))) == [
        "deal_over"
    ]
    assert codes(engine.check(deal([], HANDS))) == ["deal_not_over"]


def test_the_deck_is_whole():
    record = deal([{"player": "A", "drop": True}], HANDS, stock=["D2"])
    assert codes(engine.check(record)) == ["incomplete_deck"]


def test_a_summary_record_is_checked_for_the_stock_ending():
    base = {
        "game": "1234",
        "players": P3,
        "dealer": "C",
        "hands_left": {"A": ["S3", "S6"], "B": ["HK", "H2"], "C": ["DK", "D9"]},
    }
    assert engine.check({**base, "winner": "C"}).valid  # K 9 beats K 2
    assert codes(engine.check({**base, "winner": "B"})) == ["wrong_winner"]
    assert codes(engine.check({**base, "winner": "A", "dropped": ["A"]})) == ["wrong_winner"]
    assert engine.check({**base, "winner": "A", "dropped": ["B", "C"]}).valid


def test_a_match_ends_at_its_limit_and_the_winner_deals_next():
    base = {
        "hands_left": {"A": ["S3"], "B": ["HK"], "C": ["D2"]},
        "dropped": ["A", "C"],
        "winner": "B",
    }
    match = {
        "game": "1234",
        "players": P3,
        "rules": {"scoring": "chips", "limit": 5},
        "deals": [{**base, "dealer": "C"}],
    }
    result = engine.check_match(match)
    assert result.valid, result.errors
    assert not result.finished  # A paid 3 of 5 chips, C 2: nobody is out of chips
    assert result.details["chips"] == {"A": 2, "B": 10, "C": 3}
    match["deals"].append({**base, "dealer": "B"})
    result = engine.check_match(match)
    assert result.finished and result.winner == "B"
    assert result.details["chips"] == {"A": -1, "B": 15, "C": 1}


def test_a_match_of_target_games():
    base = {
        "hands_left": {"A": ["S3"], "B": ["HK"], "C": ["D2"]},
        "dropped": ["A", "C"],
        "winner": "B",
    }
    match = {"game": "1234", "players": P3, "target": 2, "deals": [{**base, "dealer": "C"}]}
    result = engine.check_match(match)
    assert not result.finished and result.next_dealer == "B"
    match["deals"].append({**base, "dealer": "B"})
    result = engine.check_match(match)
    assert result.finished and result.winner == "B"
    assert [s.total for s in result.standings] == [10, 0, 0]
    match["deals"][1]["dealer"] = "A"
    assert codes(engine.check_match(match)) == ["wrong_dealer"]
    del match["deals"][1]["dealer"]  # left out: the winner of the last game deals
    assert engine.check_match(match).valid


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    n=st.integers(2, 5),
    method=st.sampled_from(["winner_plus", "loser_minus", "chips"]),
)
def test_random_legal_games_replay_and_score_like_their_summary(seed, n, method):
    rng = random.Random(seed)
    players = [f"P{i}" for i in range(n)]
    record = random_deal(rng, players, rng.choice(players))
    record["rules"] = {"scoring": method}
    result = engine.check(record)
    assert result.valid, result.errors
    summary = engine.summarize(record)
    assert engine.check(summary).scores == result.scores
    if method == "chips":
        assert sum(result.scores.values()) == 0
    held = [c for h in result.details["hands_left"].values() for c in h]
    assert len(held) == len(set(held))
    left = [p for p in players if p not in result.details["dropped"]]
    if result.details["ended"] == "last_player":
        assert left == [result.details["winner"]]
    else:
        best = max(
            sorted(
                (1 if c[1:] == "A" else Card(c).strength for c in result.details["hands_left"][p]),
                reverse=True,
            )
            for p in left
        )
        won = result.details["hands_left"][result.details["winner"]]
        assert sorted((1 if c[1:] == "A" else Card(c).strength for c in won), reverse=True) == best
