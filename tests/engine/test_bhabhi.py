"""Bhabhi: ♠A opens, follow suit, the pick-up, going out, the bhabhi, and the special rules."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.cards import Card, standard_deck
from engine.games.bhabhi import Bhabhi, random_deal
from engine.games.bhabhi_play import Replay
from engine.problems import Checker

P3 = ["A", "B", "C"]
BASIC = Bhabhi().check_rules({}, Checker(), "rules")


def codes(result):
    return [e.code for e in result.errors]


def cards(text):
    return [Card(c) for c in text.split()]


def rules(**on):
    return {**BASIC, **on}


def dealt(spec):
    """Spades and hearts as given; diamonds and clubs fill the hands to 18/17/17."""
    hands = {p: h.split() for p, h in spec.items()}
    for code in standard_deck():
        if code[0] in "DC":
            min(hands.values(), key=len).append(code)
    return hands


SPEC = {
    "A": "SA S2 S3 S4 H2 H3",
    "B": "SK S5 S6 S7 S8 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK HA",
    "C": "SQ SJ S10 S9",
}


def record(rounds, spec=SPEC, **rule):
    return {
        "game": "bhabhi",
        "players": P3,
        "rules": rule,
        "hands": dealt(spec),
        "rounds": [
            {"plays": [{"player": p, "card": c} for p, c in r]} if isinstance(r, list) else r
            for r in rounds
        ],
    }


def position(hands, **rule):
    """A replay stopped mid-game: every hand as given (not a whole deck)."""
    replay = Replay(list(hands), rules(**rule), Checker())
    replay.hands = {p: cards(h) for p, h in hands.items()}
    return replay


def play(replay, plays, leader, r=1, takes=None):
    item = {"plays": [{"player": p, "card": c} for p, c in plays]}
    if takes:
        item["takes"] = takes
    return replay.round(item, "rounds[0]", r, leader)


def test_spade_ace_opens_the_first_round():
    assert codes(engine.check(record([[("A", "S2"), ("B", "S5"), ("C", "S9")]]))) == ["wrong_lead"]
    assert codes(engine.check(record([[("B", "SK"), ("C", "S9"), ("A", "SA")]]))) == ["wrong_order"]
    assert codes(engine.check(record([[("A", "SA"), ("B", "S5"), ("C", "S9")]]))) == [
        "deal_not_over"
    ]


def test_everyone_follows_suit_when_able():
    result = engine.check(record([[("A", "SA"), ("B", "H4"), ("C", "S9")]]))
    assert codes(result) == ["revoke"]
    assert result.errors[0].path == "rounds[0].plays[1].card"


def test_when_all_follow_the_highest_leads_and_the_cards_are_discarded():
    replay = position({"A": "S2 H2", "B": "SK H3", "C": "S9 H4"})
    assert play(replay, [("A", "S2"), ("B", "SK"), ("C", "S9")], "A") == "B"
    assert sorted(c.code for c in replay.discards) == ["S2", "S9", "SK"]
    assert [len(replay.hands[p]) for p in P3] == [1, 1, 1]


def test_a_failure_to_follow_ends_the_round_and_the_highest_of_the_led_suit_picks_up():
    replay = position({"A": "SA H2", "B": "SQ H3", "C": "D9 H4"})
    assert play(replay, [("B", "SQ"), ("C", "D9")], "B") == "B"
    assert sorted(c.code for c in replay.hands["B"]) == ["D9", "H3", "SQ"]
    assert replay.discards == []
    # "Aでリード、次の手番プレイヤーが8を出してラウンドが終了": the lead alone may be the highest.
    replay = position({"A": "SA D2", "B": "SQ H3", "C": "D9 H4"})
    assert play(replay, [("C", "H4"), ("A", "SA")], "C") == "C"
    assert sorted(c.code for c in replay.hands["C"]) == ["D9", "H4", "SA"]


def test_nobody_plays_after_a_failure_to_follow():
    replay = position({"A": "SA H2", "B": "SQ H3", "C": "D9 H4"})
    assert play(replay, [("B", "SQ"), ("C", "D9"), ("A", "SA")], "B") is None
    assert [e.code for e in replay.checker.problems] == ["round_over"]


def test_empty_hands_go_out_and_the_last_one_left_is_the_bhabhi():
    replay = position({"A": "S2", "B": "SK H3", "C": "S9"})
    assert play(replay, [("A", "S2"), ("B", "SK"), ("C", "S9")], "A") == "B"
    assert replay.out == ["A", "C"]
    assert replay.loser == "B"


def test_a_leader_who_went_out_passes_the_lead_left():
    replay = position({"A": "S2 H2", "B": "SK", "C": "S9 H4"})
    assert play(replay, [("A", "S2"), ("B", "SK"), ("C", "S9")], "A") == "C"
    assert replay.out == ["B"]


def test_every_hand_emptied_at_once_makes_the_highest_the_bhabhi():
    replay = position({"A": "S2", "B": "SK", "C": "S9"})
    play(replay, [("A", "S2"), ("B", "SK"), ("C", "S9")], "A")
    assert replay.loser == "B"


def test_first_round_rule_goes_on_and_discards():
    spec = {
        **SPEC,
        "C": "SQ SJ S10 S9 H2 H3",
        "A": "SA S2 S3 S4",
    }  # B holds no more spades than these
    spec["B"] = "SK S5 S6 S7 S8 H4 H5 H6 H7 H8 H9 H10 HJ HQ HK HA"
    base = [[("A", "SA"), ("B", "SK"), ("C", "S9")]]
    assert codes(engine.check(record(base, spec, first_round=True))) == ["deal_not_over"]
    replay = position({"A": "SA H2", "B": "H3 H5", "C": "S9 H4"}, first_round=True)
    assert play(replay, [("A", "SA"), ("B", "H3"), ("C", "S9")], "A", r=0) == "A"
    assert sorted(c.code for c in replay.discards) == ["H3", "S9", "SA"]
    short = position({"A": "SA H2", "B": "H3 H5", "C": "S9 H4"}, first_round=True)
    assert play(short, [("A", "SA"), ("B", "H3")], "A", r=0) is None
    assert [e.code for e in short.checker.problems] == ["wrong_play_count"]


@pytest.mark.parametrize(
    ("mode", "giver", "ok"), [("left", "B", True), ("left", "C", False), ("any", "C", True)]
)
def test_taking_a_hand_puts_the_giver_out(mode, giver, ok):
    replay = position({"A": "S2 H2", "B": "SK H3", "C": "S9 H4"}, take_hand=mode)
    nxt = play(replay, [], "A", takes=[{"player": "A", "from": giver}])
    if not ok:
        assert nxt is None
        assert [e.code for e in replay.checker.problems] == ["illegal_take"]
        return
    assert replay.out == [giver]
    assert len(replay.hands["A"]) == 4


def test_taking_a_hand_needs_the_rule():
    replay = position({"A": "S2 H2", "B": "SK H3", "C": "S9 H4"})
    assert play(replay, [], "A", takes=[{"player": "A", "from": "B"}]) is None
    assert [e.code for e in replay.checker.problems] == ["not_applicable"]


def test_extra_play_picks_up_everything_and_leads():
    replay = position({"A": "S2 H2", "B": "D3 H3", "C": "S9 H4"}, extra_play=True)
    assert play(replay, [("A", "S2"), ("B", "D3"), ("C", "S9")], "A") == "C"
    assert sorted(c.code for c in replay.hands["C"]) == ["D3", "H4", "S2", "S9"]
    without = position({"A": "S2 H2", "B": "D3 H3", "C": "S9 H4"})
    assert play(without, [("A", "S2"), ("B", "D3"), ("C", "S9")], "A") is None


def test_lead_when_empty_keeps_the_leader_in_and_leads_from_the_discards():
    replay = position({"A": "S2 H2", "B": "SK", "C": "S9 H4"}, lead_when_empty=True)
    assert play(replay, [("A", "S2"), ("B", "SK"), ("C", "S9")], "A") == "B"
    assert replay.out == []  # B leads next and may not go out
    assert (
        play(replay, [("B", "S2"), ("C", "H4"), ("A", "H2")], "B") is None
    )  # S2 from the hand: B has none
    replay.checker.problems.clear()
    item = {
        "plays": [{"player": "B", "card": "S2", "from": "discards"}, {"player": "C", "card": "H4"}]
    }
    assert replay.round(item, "rounds[1]", 2, "B") == "B"  # C cannot follow: B picks up both
    assert sorted(c.code for c in replay.hands["B"]) == ["H4", "S2"]


def test_shootout_the_stronger_last_card_leads_from_the_discards():
    replay = position({"A": "SK", "B": "S9 H4"}, shootout=True)
    replay.discards = cards("D2 DK")
    assert play(replay, [("A", "SK"), ("B", "S9")], "A") == "A"
    assert replay.shooter == "A" and replay.loser is None
    item = {
        "plays": [{"player": "A", "card": "D2", "from": "discards"}, {"player": "B", "card": "H4"}]
    }
    replay.round(item, "rounds[1]", 2, "A")
    assert replay.loser == "A"  # B could not follow diamonds: the shooter loses
    basic = position({"A": "SK", "B": "S9 H4"})
    play(basic, [("A", "SK"), ("B", "S9")], "A")
    assert basic.loser == "B"


def test_a_summary_names_the_bhabhi():
    result = engine.check({"game": "bhabhi", "players": P3, "bhabhi": "B", "out": ["C", "A"]})
    assert result.scores == {"A": 0, "B": -1, "C": 0}
    assert result.winners == ("A", "C")
    bad = engine.check({"game": "bhabhi", "players": P3, "bhabhi": "B", "out": ["C", "B"]})
    assert codes(bad) == ["wrong_bhabhi"]


def test_a_match_counts_the_times_bhabhi():
    deals = [{"bhabhi": "B"}, {"bhabhi": "B"}, {"bhabhi": "C"}]
    result = engine.check_match({"game": "bhabhi", "players": P3, "target": 3, "deals": deals})
    assert result.finished and result.winner == "A"
    assert [(s.player, s.total) for s in result.standings] == [("A", 0), ("C", -1), ("B", -2)]


RULE_SETS = st.fixed_dictionaries(
    {},
    optional={
        "first_round": st.booleans(),
        "take_hand": st.sampled_from(["left", "any"]),
        "extra_play": st.booleans(),
        "shootout": st.booleans(),
        "lead_when_empty": st.booleans(),
    },
)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**9), n=st.integers(2, 7), rules_=RULE_SETS)
def test_random_legal_games_end_with_one_bhabhi(seed, n, rules_):
    players = [f"P{i}" for i in range(n)]
    record_ = random_deal(random.Random(seed), players, rules_)
    result = engine.check(record_)
    assert result.valid, result.errors
    assert sorted([result.details["bhabhi"], *result.details["out"]]) == sorted(players)
    assert engine.check(engine.summarize(record_)).scores == result.scores
    played = [p["card"] for r in record_["rounds"] for p in r.get("plays", [])]
    assert set(played) <= set(standard_deck())
