"""Packing turn by turn: every play rule on a hand-built position (Sid Sackson's rules)."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.cards import Card, standard_deck
from engine.deal import play_match
from engine.games.packing_play import Table, can_pack, hand_value, play_value
from engine.games.packing_random import _pack_options, random_packing_deal
from engine.registry import GAMES

PACKING = GAMES["packing"]


def cards(text):
    return [Card(c) for c in text.split()]


@pytest.mark.parametrize(
    ("hand", "value"),
    [
        ("SA", 20),
        ("SK", 10),
        ("SJ", 10),
        ("S10", 10),
        ("S7", 7),
        ("S5 S5", 55),
        ("S5 S4", 54),
        ("S2 S2", 22),
        ("S3 S2", 32),
        ("S5 S4 S3", 54 + 3),
        ("S5 S5 S2 S2", 52 + 52),
        ("S5 S3 S2", 53 + 2),
    ],
)
def test_play_values_and_the_special_pairs_from_the_hand(hand, value):
    assert hand_value(cards(hand)) == value


def test_a_single_card_is_worth_its_play_value():
    assert [play_value(c) for c in cards("SA HK DQ CJ S10 H2")] == [20, 10, 10, 10, 10, 2]


def two_player(table, hands, stock, turns):
    """A 2-player deal with one deck; ``hands`` and the stock need not be the whole deck."""
    record = {
        "game": "packing",
        "players": ["N", "E"],
        "hands": hands,
        "table": table.split(),
        "turns": turns,
    }
    for turn, draw in zip(turns, stock.split(), strict=True):
        turn["draw"] = draw
    return record


def errors(record):
    return [(e.code, e.path) for e in engine.check(record).errors]


HANDS = {"N": "S5 S4 H9 D3 C2".split(), "E": "HA H3 D9 D8 C5".split()}


def test_a_draw_of_a_suit_not_on_the_table_goes_to_the_table():
    record = two_player("S9 H5 H6", HANDS, "DK", [{"player": "N"}])
    result = engine.check(record)
    assert result.valid, result.errors
    bad = two_player(
        "S9 H5 H6", HANDS, "DK", [{"player": "N", "pack": {"table": "S9", "hand": ["S5", "S4"]}}]
    )
    assert errors(bad) == [("not_applicable", "turns[0].pack")]


def test_a_pack_takes_one_table_card_with_same_suit_cards_worth_more():
    turns = [{"player": "N", "pack": {"table": "S9", "hand": ["S5", "S4"]}}]  # 54 beats 9
    result = engine.check(two_player("S9 H5 H6", HANDS, "S2", turns))
    assert result.valid, result.errors
    assert result.details["side_scores"] == [20, 0]  # ♠9 ♠5 ♠4 at the end: 10 + 5 + 5


def test_a_pack_must_beat_the_table_card_by_at_least_one():
    turns = [{"player": "N", "pack": {"table": "H10", "hand": ["H9"]}}]  # 9 against 10
    record = two_player("S9 H5 H10", HANDS, "S2", turns)
    assert errors(record) == [("pack_too_weak", "turns[0].pack.hand")]


def test_a_pack_is_made_of_the_table_cards_suit():
    turns = [{"player": "N", "pack": {"table": "S9", "hand": ["H9"]}}]
    assert errors(two_player("S9 H5 H6", HANDS, "S2", turns)) == [
        ("mixed_suits", "turns[0].pack.hand")
    ]


def test_a_pack_uses_cards_in_hand_including_the_draw():
    turns = [{"player": "N", "pack": {"table": "S9", "hand": ["SQ"]}}]
    assert engine.check(two_player("S9 H5 H6", HANDS, "SQ", turns)).valid
    turns = [{"player": "N", "pack": {"table": "S9", "hand": ["SQ"]}}]
    assert errors(two_player("S9 H5 H6", HANDS, "S2", turns)) == [
        ("card_not_held", "turns[0].pack.hand")
    ]


def test_steals_follow_a_pack_of_another_suit_and_beat_the_packs_total():
    hands = {"N": "S5 S4 HK HQ C2".split(), "E": "H8 H3 D9 D8 C5".split()}
    turns = [
        {"player": "N", "pack": {"table": "S9", "hand": ["S5", "S4"]}},
        {"player": "E", "pack": {"table": "H6", "hand": ["H8"]}},
        {"player": "N", "pack": {"table": "D4", "hand": ["DA"]},
         "steals": [{"from": "E", "packs": [0], "hand": ["HK", "HQ"]}]},  # 20 beats ♡6 ♡8 = 14
    ]  # fmt: skip
    record = two_player("S9 H6 D4", hands, "S2 H2 DA", turns)
    result = engine.check(record)
    assert result.valid, result.errors
    weak = two_player("S9 H6 D4", hands, "S2 H2 DA", [dict(t) for t in turns])
    weak["turns"][2]["steals"] = [{"from": "E", "packs": [0], "hand": ["HQ"]}]  # 10 < 14
    assert errors(weak) == [("steal_too_weak", "turns[2].steals[0].hand")]


def test_a_steal_is_of_another_suit_than_the_pack_just_made():
    hands = {"N": "S5 S4 HK HQ HA".split(), "E": "H8 D9 D8 C5 C3".split()}
    turns = [
        {"player": "N", "pack": {"table": "S9", "hand": ["S5", "S4"]}},
        {"player": "E", "pack": {"table": "H6", "hand": ["H8"]}},
        {"player": "N", "pack": {"table": "H10", "hand": ["HA"]},
         "steals": [{"from": "E", "packs": [0], "hand": ["HK", "HQ"]}]},
    ]  # fmt: skip
    record = two_player("S9 H6 H10", hands, "S2 H2 H3", turns)
    assert errors(record) == [("suit_used", "turns[2].steals[0]")]


def test_a_steal_needs_a_pack_in_the_same_turn():
    turns = [{"player": "N", "steals": [{"from": "E", "packs": [0], "hand": ["S5"]}]}]
    assert errors(two_player("S9 H5 H6", HANDS, "S2", turns)) == [
        ("not_applicable", "turns[0].steals")
    ]


def test_with_all_four_suits_on_the_table_a_possible_pack_is_required():
    # ♣A drawn goes to the table: all four suits show, and E's draw stays secret.
    can = {"N": "S5 S4 H8 D3 C3".split(), "E": "S2 H3 D5 C6 C7".split()}
    turns = [{"player": "N"}, {"player": "E"}]
    assert errors(two_player("SA HA DA", can, "CA D4", turns)) == [("must_pack", "turns[1]")]
    # With ♡9 drawn E has nothing worth more than an ace: the turn just ends.
    assert engine.check(
        two_player("SA HA DA", can, "CA H9", [{"player": "N"}, {"player": "E"}])
    ).valid


def test_turns_go_in_order_of_play_and_each_draws_the_top_card():
    turns = [{"player": "E"}]
    assert errors(two_player("S9 H5 H6", HANDS, "DK", turns)) == [
        ("wrong_order", "turns[0].player")
    ]
    record = random_packing_deal(["N", "E"], PACKING.deck(2), random.Random(5))
    top = record["stock"][0]
    record["turns"][0]["draw"] = next(c for c in record["stock"][1:] if c != top)
    assert errors(record) == [("wrong_draw", "turns[0].draw")]


def test_the_replay_scores_exactly_as_the_packs_it_derives():
    record = random_packing_deal(
        ["N", "E", "S", "W"], PACKING.deck(4), random.Random(3), PACKING.sides(["N", "E", "S", "W"])
    )
    full = engine.check(record)
    assert full.valid
    derived = full.details["packs"]
    summary = {
        "game": "packing",
        "players": record["players"],
        "teams": record["teams"],
        "packs": derived,
    }
    assert engine.check(summary).scores == full.scores
    record["packs"] = derived
    assert engine.check(record).valid
    record["packs"] = {**derived, "N": derived["N"][1:]}
    assert ("replay_mismatch", "packs") in errors(record)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), n=st.sampled_from([2, 3, 4, 6]))
def test_random_legal_games_replay_and_conserve_every_card(seed, n):
    players = [f"P{i}" for i in range(n)]
    teams = PACKING.sides(players) if n in (4, 6) else None
    record = random_packing_deal(players, PACKING.deck(n), random.Random(seed), teams)
    result = engine.check(record)
    assert result.valid, [e.to_dict() for e in result.errors]
    packed = [c for packs in result.details["packs"].values() for pack in packs for c in pack]
    dealt = [c for h in record["hands"].values() for c in h] + record["table"] + record["stock"]
    assert not Counter(packed) - Counter(dealt)  # packs hold only dealt cards, each once
    assert len(record["turns"]) == len(record["stock"])
    summary = {"game": "packing", "players": players, "packs": result.details["packs"]}
    if teams:
        summary["teams"] = teams
    assert engine.check(summary).scores == result.scores
    assert engine.summarize(record) == summary  # the engine's own summary
    assert standard_deck(copies=1 if n == 2 else 2) == PACKING.deck(n)


def test_the_generator_packs_with_the_whole_suit_when_only_that_beats_the_table_card():
    """A pack has no size limit (can_pack counts every card): with ♠A (20) on the table and
    ♠6 ♠6 ♠7 ♠7 in hand, no three beat it (at most 20) but all four do (26).  The random
    generator once offered only packs of up to three cards and so skipped a required pack."""
    state = Table(
        hands={"N": Counter({"S6": 2, "S7": 2})}, table=[Card("SA")], stock=[], packs={"N": []}
    )
    assert can_pack(state, "N")
    assert [(t.code, sorted(c.code for c in cs)) for t, cs in _pack_options(state, "N")] == [
        ("SA", ["S6", "S6", "S7", "S7"])
    ]


def test_a_card_dealt_more_often_than_the_decks_hold_it_is_named_where_it_lies():
    # N holds ♠5 and the table shows it too: one deck for two players.
    assert errors(two_player("S5 H5 H6", HANDS, "DK", [{"player": "N"}])) == [
        ("too_many_copies", "table[0]")
    ]
    record = random_packing_deal(["N", "E"], PACKING.deck(2), random.Random(5))
    record["stock"][-1] = record["hands"]["N"][0]  # a card dealt twice: its second copy named
    assert errors(record) == [("too_many_copies", f"stock[{len(record['stock']) - 1}]")]


def test_a_full_play_that_lists_its_stock_deals_the_whole_deck():
    record = random_packing_deal(["N", "E"], PACKING.deck(2), random.Random(5))
    del record["stock"][-1], record["turns"][-1]  # a card short, one turn fewer
    result = engine.check(record)
    assert [(e.code, e.path, e.message) for e in result.errors] == [
        ("incomplete_deck", "stock", "the hands, the table and the stock are not the whole deck")
    ]
    # Without a stock each turn names its draw, and the deal need not be the whole deck.
    assert engine.check(two_player("S9 H5 H6", HANDS, "DK", [{"player": "N"}])).valid


def test_the_turns_start_at_the_dealers_left():
    """001 line 23: 「ディーラーの左隣のプレイヤーから順に時計回りにプレイを行います。」"""
    record = random_packing_deal(["N", "E", "S"], PACKING.deck(3), random.Random(2), dealer="N")
    assert record["dealer"] == "N" and record["turns"][0]["player"] == "E"
    assert engine.check(record).valid
    assert errors({**record, "dealer": "S"}) == [("wrong_order", "turns[0].player")]
    del record["dealer"]  # the default dealer is the last of ``players``: N starts
    assert errors(record) == [("wrong_order", "turns[0].player")]
    assert errors({**record, "dealer": "X"}) == [("unknown_player", "dealer")]


def test_in_a_match_the_deal_rotates_and_each_deal_is_played_from_its_dealers_left():
    """D2, 001 line 6: 「次回からは、ディーラーは時計回りに交代します。」"""
    first = random_packing_deal(["A", "B"], PACKING.deck(2), random.Random(1))
    assert first["turns"][0]["player"] == "A"  # B deals the first deal
    second = random_packing_deal(["A", "B"], PACKING.deck(2), random.Random(2), dealer="A")
    assert second.pop("dealer") == "A" and second["turns"][0]["player"] == "B"
    match = {"game": "packing", "players": ["A", "B"], "deals": [first, second]}
    result = engine.check_match(match)
    assert result.valid, [e.to_dict() for e in result.errors]
    assert result.next_deal.get("dealer", "B") == result.next_dealer == "B"
    summary = engine.summarize({**second, "dealer": "A"})  # alone, a record names its dealer
    wrong = engine.check_match({**match, "deals": [first, {**summary, "dealer": "B"}]})
    assert [(e.code, e.path, e.params) for e in wrong.errors] == [
        ("wrong_dealer", "deals[1].dealer", {"dealer": "A", "number": 2})
    ]
    opening = engine.check_match({**match, "deals": [{**first, "dealer": "A"}]})
    assert [e.code for e in opening.errors] == ["wrong_order"]  # A deals: B starts


def test_random_matches_rotate_the_dealer_and_check_as_played():
    players = ["N", "E", "S", "W"]
    deals = play_match(PACKING, random.Random(6), players, target=5000, most=6)
    record = {"game": "packing", "players": players, "target": 5000, "deals": deals}
    result = engine.check_match(record)
    assert result.valid and len(deals) == 6
    for k, deal in enumerate(deals):
        assert deal.get("dealer", "W") == players[(k - 1) % 4]
        assert deal["turns"][0]["player"] == players[k % 4]  # the dealer's left
