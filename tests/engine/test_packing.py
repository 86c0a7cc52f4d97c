"""Packing: throw-off per suit, end values, partnerships and the race to 500."""

import pytest

import engine
from engine.cards import parse_card
from engine.games.packing import card_value


def deal(packs, players=("N", "E", "S", "W"), teams=True):
    record = {"game": "packing", "players": list(players), "packs": packs}
    if teams and len(players) in (4, 6):
        record["teams"] = [list(players[0::2]), list(players[1::2])]
    return record


@pytest.mark.parametrize(
    ("code", "value"), [("SA", 20), ("HK", 10), ("D8", 10), ("C7", 5), ("S2", 5)]
)
def test_cards_are_worth_their_end_of_deal_values(code, value):
    assert card_value(parse_card(code)) == value


def test_without_throw_off_every_pack_counts_for_its_side():
    # Hearts only for N/S, spades only for E/W: no suit is held by both sides.
    result = engine.check(deal({"N": [["HA", "H5"]], "E": [["SK", "S2"]], "S": [], "W": []}))
    assert result.details["side_scores"] == [25, 15]
    assert result.scores == {"N": 25, "S": 25, "E": 15, "W": 15}
    assert result.details["thrown_off"] == [[], []]


def test_each_side_throws_off_its_lowest_packs_in_a_suit_both_hold():
    packs = {
        "N": [["HA", "H5"], ["H3", "H2"]],  # 25 and 10: N/S hold two heart packs
        "E": [["HK", "H9"]],  # E/W hold one heart pack
        "S": [],
        "W": [],
    }
    result = engine.check(deal(packs))
    assert result.details["thrown_off"] == [[["H3", "H2"]], [["HK", "H9"]]]
    assert result.details["side_scores"] == [25, 0]
    assert result.details["winners"] == ["N", "S"]


def test_partners_packs_are_counted_together_for_the_throw_off():
    packs = {"N": [["SA", "S2"]], "S": [["SK", "S3"]], "E": [["S10", "S4"]], "W": []}
    result = engine.check(deal(packs))
    # N/S hold two spade packs, E/W one: each side throws off one (N/S the 15-point one).
    assert result.details["side_scores"] == [25, 0]


def test_two_players_use_one_deck_and_three_use_two():
    two = engine.check(deal({"A": [["SA", "S2"]], "B": [["SA", "S3"]]}, players=("A", "B")))
    assert [e.code for e in two.errors] == ["too_many_copies"]
    three = deal({"A": [["SA", "S2"]], "B": [["SA", "S3"]], "C": []}, players=("A", "B", "C"))
    assert engine.check(three).valid


def test_teams_must_be_the_alternate_seats():
    record = deal({"N": [], "E": [], "S": [], "W": []})
    record["teams"] = [["N", "E"], ["S", "W"]]
    assert [e.code for e in engine.check(record).errors] == ["wrong_teams"]
    del record["teams"]
    assert [(e.code, e.path) for e in engine.check(record).errors] == [("missing_field", "teams")]


def test_a_pack_is_one_suit_and_at_least_two_cards():
    result = engine.check(deal({"N": [["HA", "S5"], ["D4"]], "E": [], "S": [], "W": []}))
    assert [(e.code, e.path) for e in result.errors] == [
        ("mixed_suits", "packs.N[0]"),
        ("short_pack", "packs.N[1]"),
    ]


def test_five_players_cannot_play():
    record = deal({p: [] for p in "ABCDE"}, players=tuple("ABCDE"))
    assert [e.code for e in engine.check(record).errors] == ["player_count"]


def match(deals, target=None):
    record = {"game": "packing", "players": ["N", "E", "S", "W"], "deals": deals}
    if target:
        record["target"] = target
    return engine.check_match(record)


def packs_worth(north, east):
    """A deal where N/S take ``north`` and E/W ``east`` 25-point packs (hearts vs spades)."""
    return {
        "packs": {"N": [["HA", "H5"]] * north, "E": [["SA", "S5"]] * east, "S": [], "W": []},
        "teams": [["N", "S"], ["E", "W"]],
    }


def test_the_first_side_to_reach_the_target_wins():
    result = match([packs_worth(1, 1), packs_worth(1, 0)], target=50)
    assert result.finished
    assert result.winner == "N" and result.winners == ("N", "S")
    assert [(s.player, s.total) for s in result.standings] == [
        ("N", 50),
        ("S", 50),
        ("E", 25),
        ("W", 25),
    ]


def test_the_default_target_is_500():
    result = match([packs_worth(2, 1)] * 9)
    assert not result.finished and result.standings[0].total == 450
    assert match([packs_worth(2, 1)] * 10).finished


def test_sides_level_at_the_target_play_another_deal_and_then_the_higher_wins():
    tied = match([packs_worth(2, 2)], target=50)
    assert not tied.finished and tied.winner is None
    decided = match([packs_worth(2, 2), packs_worth(0, 1)], target=50)
    assert decided.finished and decided.winner == "E" and decided.winners == ("E", "W")


def test_the_deal_rotates_clockwise_and_the_match_reports_the_next_dealer():
    # players start left of the first dealer (W): N deals the second deal, E the third.
    assert match([packs_worth(1, 0)]).next_dealer == "N"
    assert match([packs_worth(1, 0), packs_worth(0, 1)]).next_dealer == "E"
    assert match([packs_worth(2, 0)], target=50).next_dealer is None  # the match is over


def test_a_pack_card_more_often_than_the_decks_hold_it_is_named_where_it_lies():
    # One deck for two players: B's ♠A is the second; B's first pack is unreadable and
    # keeps its place, so the copy too many is B's second pack's first card.
    record = deal({"A": [["SA", "S2"]], "B": [["XX"], ["SA", "S3"]]}, players=("A", "B"))
    assert [(e.code, e.path) for e in engine.check(record).errors] == [
        ("invalid_card", "packs.B[0][0]"),
        ("too_many_copies", "packs.B[1][0]"),
    ]
