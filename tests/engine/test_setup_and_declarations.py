"""Deal set-up and declarations (2.3.1, 2.3.2, 3.3.1, 3.3.2, tables 2.1, 3.1-3.3, 6.1.4)."""

import csv
from pathlib import Path

import pytest

import engine
from engine.cards import Card
from engine.games.declarer import TRUMPS, Bid
from engine.games.replay import is_misdeal
from engine.games.score_tables import formula_payout
from engine.registry import GAMES

NAPOLEON, RETTLER = GAMES["napoleon"], GAMES["rettler"]
DATA = Path(engine.__file__).parent / "data"


def cards(*codes):
    return [Card(c) for c in codes]


def test_decks_napoleon_53_with_one_joker_rettler_108_with_two_jokers_and_two_bridges():
    assert sum(NAPOLEON.deck().values()) == 53 and NAPOLEON.deck()["JK"] == 1
    assert sum(RETTLER.deck().values()) == 108
    assert RETTLER.deck()["JK"] == 2 and RETTLER.deck()["BR"] == 2 and RETTLER.deck()["SA"] == 2


@pytest.mark.parametrize(
    ("game", "n", "hand", "widow"),
    [
        (NAPOLEON, 3, 16, 5),
        (NAPOLEON, 4, 12, 5),
        (NAPOLEON, 5, 10, 3),
        (NAPOLEON, 6, 8, 5),
        (RETTLER, 4, 26, 4),
        (RETTLER, 5, 21, 3),
        (RETTLER, 6, 17, 6),
        (RETTLER, 7, 15, 3),
        (RETTLER, 8, 13, 4),
    ],
)
def test_tables_2_1_and_3_1_hand_and_widow_sizes_use_the_whole_deck(game, n, hand, widow):
    assert (game.hand_size(n), game.widow_size(n)) == (hand, widow)
    assert n * hand + widow == sum(game.deck().values())


def test_2_3_1_a_hand_without_2_4_10_j_q_k_a_or_joker_is_a_misdeal():
    assert is_misdeal(cards("S3", "H5", "D6", "C7", "S8", "H9", "D3", "C5", "S6", "H7", "D8", "C9"))
    assert not is_misdeal(
        cards("S3", "H5", "D6", "C7", "S8", "H9", "D3", "C5", "S6", "H7", "D8", "JK")
    )
    assert not is_misdeal(
        cards("S3", "H5", "D6", "C7", "S8", "H9", "D3", "C5", "S6", "H7", "D8", "C2")
    )


def test_2_3_2_the_trump_order():
    assert TRUMPS == (
        "black",
        "red",
        "igo-notrump",
        "notrump",
        "chigaku-notrump",
        "spades",
        "hearts",
        "diamonds",
        "clubs",
    )


def test_2_3_2_a_higher_count_outranks_whatever_the_trump_and_equal_counts_go_by_trump():
    assert NAPOLEON.outranks(4, Bid(15, "clubs"), Bid(14, "black"))
    assert NAPOLEON.outranks(4, Bid(15, "black"), Bid(15, "red"))
    assert NAPOLEON.outranks(4, Bid(15, "igo-notrump"), Bid(15, "notrump"))
    assert not NAPOLEON.outranks(4, Bid(15, "spades"), Bid(15, "spades"))
    assert not NAPOLEON.outranks(4, Bid(15, "clubs"), Bid(15, "diamonds"))


def test_table_3_3_five_player_two_adjutant_counts_are_converted_before_comparing():
    # The book's example: one adjutant 23 is above two adjutants 31 (which ranks with 22).
    assert RETTLER.outranks(5, Bid(23, "clubs", 1), Bid(31, "black", 2))
    assert RETTLER.outranks(5, Bid(31, "black", 2), Bid(22, "spades", 1))
    # 30 with two adjutants ranks with 20 with one: the trump decides.
    assert RETTLER.outranks(5, Bid(30, "spades", 2), Bid(20, "hearts", 1))
    assert not RETTLER.outranks(5, Bid(30, "hearts", 2), Bid(20, "spades", 1))
    with open(DATA / "rettler_5p_conversion.csv", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            two, one = int(row["two_adjutant_declared"]), int(row["one_adjutant_equivalent"])
            assert RETTLER.comparable_count(5, Bid(two, "clubs", 2)) == one


def test_appendix_c_prose_formulas_give_every_printed_napoleon_cell():
    with open(DATA / "napoleon_scores.csv", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            n, won = int(row["players"]), row["taken_min"] == "win"
            k = abs(int(row["lone_napoleon"])) // 60
            lone, helped = (
                formula_payout(n, 60 * k, won, 0, k),
                formula_payout(n, 60 * k, won, 1, k),
            )
            assert (lone.leader, lone.coalition) == (
                int(row["lone_napoleon"]),
                int(row["lone_coalition_each"]),
            )
            assert (helped.leader, helped.adjutant, helped.coalition) == (
                int(row["napoleon"]),
                int(row["adjutant"]),
                int(row["coalition_each"]),
            )


def test_appendix_c_prose_formulas_give_the_rettler_cells_except_the_8_player_63_rounding():
    with open(DATA / "rettler_win_scores.csv", encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            n, k = int(row["players"]), int(row["multiplier"])
            helped = formula_payout(n, 60 * k, True, 1, k)
            assert (helped.leader, helped.adjutant, helped.coalition) == (
                int(row["2R"]),
                int(row["2A"]),
                int(row["2C"]),
            )
            if n != 8:
                lone = formula_payout(n, 60 * k, True, 0, k)
                assert (lone.leader, lone.coalition) == (int(row["1R"]), int(row["1C"]))


def six_player_napoleon(count, army, adjutants):
    players = list("ABCDEF")
    points = dict.fromkeys(players, 0)
    team = ["A", *adjutants]
    for i in range(army):
        points[team[i % len(team)]] += 1
    rest = [p for p in players if p not in team]
    for i in range(20 - army):
        points[rest[i % len(rest)]] += 1
    return {
        "game": "napoleon",
        "players": players,
        "declaration": {"player": "A", "count": count, "trump": "spades"},
        "adjutant_cards": ["SA", "HJ"],
        "adjutants": adjutants,
        "point_cards": points,
    }


def test_6_1_4_six_player_napoleon_has_two_adjutants_and_scores_by_the_formulas():
    won = engine.check(six_player_napoleon(16, 17, ["B", "C"]))
    assert won.valid, won.errors
    assert won.scores == {"A": 60, "B": 30, "C": 30, "D": -40, "E": -40, "F": -40}
    lost = engine.check(six_player_napoleon(12, 5, ["B"]))  # 5 of 12: under 1/2, x4
    assert lost.scores == {"A": -180, "B": -60, "C": 60, "D": 60, "E": 60, "F": 60}
    assert lost.details["multiplier"] == 4
    assert engine.check(six_player_napoleon(11, 12, ["B"])).errors[0].code == "count_out_of_range"
