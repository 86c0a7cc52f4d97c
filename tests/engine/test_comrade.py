"""Comrade: bidding with its four immediate failures, the tricks and their three endings, titles."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.cards import Card
from engine.games.comrade_play import Bidding, _bid, hand_sizes, random_deal, trick_deck
from engine.problems import Checker

P3 = ["A", "B", "C"]


def codes(result):
    return [e.code for e in result.errors]


def bids(*turns, players=P3):
    """Replay a bidding of ``card`` codes and ``-`` for a pass, from players[0] round."""
    checker = Checker()
    moves = [
        {"player": players[i % len(players)], **({"pass": True} if t == "-" else {"card": t})}
        for i, t in enumerate(turns)
    ]
    return _bid(moves, players, Bidding(players), checker), [p.code for p in checker.problems]


def test_the_decks_and_hands_of_each_variant():
    assert sum(trick_deck(3).values()) == 36 and "S4" not in trick_deck(3) and "S5" in trick_deck(3)
    assert sum(trick_deck(4).values()) == 52
    assert hand_sizes(P3, "A") == {"A": 12, "B": 12, "C": 12}
    five = ["A", "B", "C", "D", "E"]
    assert hand_sizes(five, "A") == {"A": 11, "B": 11, "C": 10, "D": 10, "E": 10}


def test_bidding_that_reaches_the_total_ends_at_once():
    outcome, problems = bids(
        "CA", "-", "S4", "DA", "S2", "H3", "D2"
    )  # 1 + 4 + 1 + 2 + 3, D2 replaces DA
    assert problems == [] and outcome == "success"


def test_a_higher_card_of_a_suit_replaces_the_bid_and_a_lower_one_is_refused():
    outcome, problems = bids("C3", "-", "-", "C2")
    assert outcome is None and problems == ["illegal_bid"]


def test_a_taken_card_cannot_be_taken_again():
    assert bids("C3", "C3")[1] == ["card_not_held"]


@pytest.mark.parametrize(
    ("turns", "outcome"),
    [
        (("-", "-", "-"), "three_passes"),
        (("S4", "H4", "D3", "-", "C2"), "bid_over"),
        (("SA", "-", "HA", "-", "DA", "-", "CA", "-", "S2"), "bid_short"),
    ],
)
def test_the_four_immediate_failures(turns, outcome):
    got, problems = bids(*turns)
    assert problems == [] and got == outcome


def test_no_card_within_reach_is_a_failure():
    state = Bidding(P3)
    state.take("A", Card("S4"), Card("S4").suit)
    state.take("B", Card("H4"), Card("H4").suit)
    state.take("C", Card("D3"), Card("D3").suit)  # 11: one to go
    state.table = [Card("C2"), Card("D4")]  # C2 adds 2 for anyone; D4 adds 1 for C only
    assert not state.stuck()
    state.table = [Card("C2"), Card("C3")]
    assert state.stuck()


def test_bids_after_the_bidding_ended_are_refused():
    assert bids("-", "-", "-", "SA")[1] == ["deal_over"]


def test_five_players_jokers_add_one_or_open_a_suit():
    five = ["A", "B", "C", "D", "E"]
    state = Bidding(five)
    state.take("A", Card("S3"), Card("S3").suit)
    state.take("A", Card("JK"), Card("S3").suit)
    state.take("B", Card("JK"), Card("H2").suit)
    assert state.bids["A"] == {Card("S3").suit: 4} and state.bids["B"] == {Card("H2").suit: 1}
    assert state.total() == 5
    assert not state.can_take("A", Card("S4"))  # 3 + joker is 4 already
    assert state.can_take("B", Card("H2"))


def summary(bids_, won, dealer="A", players=P3):
    return {
        "game": "comrade",
        "players": players,
        "dealer": dealer,
        "bids": bids_,
        "tricks_won": won,
    }


BIDS = {"A": {"spades": 4, "clubs": 1}, "B": {"hearts": 4}, "C": {"diamonds": 3}}


def test_success_needs_every_bid_met_exactly():
    won = {"A": {"spades": 4, "clubs": 1}, "B": {"hearts": 4}, "C": {"diamonds": 3}}
    result = engine.check(summary(BIDS, won))
    assert result.details["outcome"] == "success"
    assert result.scores == {"A": 1, "B": 1, "C": 1}
    assert result.winners == ("A", "B", "C")


@pytest.mark.parametrize(
    ("won", "outcome"),
    [
        (
            {"A": {"spades": 4, "clubs": 1}, "B": {"hearts": 3}, "C": {"diamonds": 3, "hearts": 1}},
            "wrong_suit",
        ),
        ({"A": {"spades": 3, "clubs": 1}, "B": {"hearts": 4}, "C": {"diamonds": 4}}, "too_many"),
        ({"A": {"hearts": 1}}, "wrong_suit"),
    ],
)
def test_a_trick_of_an_unbid_suit_or_beyond_a_bid_fails_at_once(won, outcome):
    result = engine.check(summary(BIDS, won))
    assert result.valid, result.errors
    assert result.details["outcome"] == outcome
    assert result.scores == {"A": 0, "B": 0, "C": 0}


def test_a_summary_must_stop_at_the_first_failure_and_not_before_the_end():
    won = {"A": {"hearts": 2}}
    assert codes(engine.check(summary(BIDS, won))) == ["deal_over"]
    assert codes(engine.check(summary(BIDS, {"A": {"spades": 4}}))) == ["deal_not_over"]
    assert engine.check(summary({"A": {"spades": 4}}, {})).details["outcome"] == "bidding"
    assert codes(engine.check(summary({"A": {"spades": 4}}, {"A": {"spades": 1}}))) == [
        "not_applicable"
    ]


def test_full_play_must_follow_and_the_highest_of_the_led_suit_wins():
    rng = random.Random(3)
    record = None
    for _ in range(200):  # a game whose bidding succeeded and that has at least two tricks
        candidate = random_deal(rng, P3, "A")
        if len(candidate["tricks"]) >= 2:
            record = candidate
            break
    assert record is not None
    result = engine.check(record)
    assert result.valid, result.errors
    first = record["tricks"][0]["plays"]
    led = first[0]["card"][0]
    hands = {p: list(h) for p, h in record["hands"].items()}
    follower = first[1]["player"]
    other = [c for c in hands[follower] if c[0] != led]
    if any(c[0] == led for c in hands[follower]) and other:
        bad = {
            **record,
            "tricks": [{"plays": [first[0], {"player": follower, "card": other[0]}, first[2]]}],
        }
        assert "revoke" in codes(engine.check(bad))


def test_the_dealer_leads_and_turns_go_round():
    record = random_deal(random.Random(8), P3, "B")
    record["bidding"][0]["player"] = "A"
    assert codes(engine.check(record)) == ["wrong_order"]


def test_a_series_gives_the_title_by_games_won():
    won_all = {"A": {"spades": 4, "clubs": 1}, "B": {"hearts": 4}, "C": {"diamonds": 3}}
    deals = [
        {"dealer": d, "bids": BIDS, "tricks_won": won_all if ok else {}}
        for d, ok in zip(P3, (True, True, False), strict=True)
    ]
    deals[2]["bids"] = {"A": {"spades": 4}}
    result = engine.check_match({"game": "comrade", "players": P3, "deals": deals})
    assert result.valid, result.errors
    assert result.finished
    assert result.details == {"games": 3, "won": 2, "title": "Good"}
    assert result.winners == ()
    wrong = {"game": "comrade", "players": P3, "deals": [{**deals[0], "dealer": "B"}]}
    assert codes(engine.check_match(wrong)) == ["wrong_dealer"]


@pytest.mark.parametrize(
    ("n", "wins", "title"),
    [
        (3, 3, "Excellent"),
        (3, 0, "Low"),
        (4, 2, "Average"),
        (4, 1, "Bad"),
        (5, 4, "Great"),
        (5, 3, "Good"),
    ],
)
def test_titles_per_player_count(n, wins, title):
    from engine.games.comrade import TITLES

    assert TITLES[n][wins] == title


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), n=st.sampled_from([3, 4, 5]))
def test_random_legal_games_replay_like_their_summary(seed, n):
    players = [f"P{i}" for i in range(n)]
    rng = random.Random(seed)
    record = random_deal(rng, players, rng.choice(players))
    result = engine.check(record)
    assert result.valid, result.errors
    again = engine.check(engine.summarize(record))
    assert again.valid, again.errors
    assert again.details["outcome"] == result.details["outcome"] or (
        result.details["outcome"] in ("three_passes", "bid_short", "stuck", "bid_over")
        and again.details["outcome"] == "bidding"
    )
    assert again.scores == result.scores
