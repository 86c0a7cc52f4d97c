"""Comp-13 deal scoring, ranking and the 12-deal match (rulebook: 得点の計算)."""

import engine

PLAYERS = ["P1", "P2", "P3", "P4"]


def deal(captured, hand=None, jokers=1):
    return {
        "game": "comp13",
        "players": PLAYERS,
        "rules": {"jokers": jokers},
        "captured": {p: captured.get(p, []) for p in PLAYERS},
        "hand_faces": {p: (hand or {}).get(p, []) for p in PLAYERS},
    }


def test_captured_cards_score_one_and_a_captured_joker_three():
    result = engine.check(deal({"P1": ["SA", "HK", "JK"]}))
    assert result.scores["P1"] == 5


def test_face_cards_left_in_hand_cost_one_and_a_joker_two():
    result = engine.check(deal({"P1": ["SA"]}, {"P2": ["DQ", "C10"], "P3": ["JK"]}))
    assert result.scores == {"P1": 1, "P2": -2, "P3": -2, "P4": 0}
    assert result.details["penalties"] == {"P1": 0, "P2": 2, "P3": 2, "P4": 0}


def test_four_kings_add_three_and_another_face_rank_four_of_a_kind_adds_two():
    kings = engine.check(deal({"P1": ["SK", "HK", "DK", "CK"]}))
    assert kings.scores["P1"] == 4 + 3
    aces_and_jacks = engine.check(deal({"P2": ["SA", "HA", "DA", "CA", "SJ", "HJ", "DJ", "CJ"]}))
    assert aces_and_jacks.scores["P2"] == 8 + 2 + 2


def test_ties_go_to_fewer_penalties_then_higher_rank_sum_then_order_from_the_dealer():
    # P1 and P2 both score 1: P2 has no penalty, P1 has one.
    fewer_penalties = engine.check(deal({"P1": ["SA", "HA"], "P2": ["DA"]}, {"P1": ["CA"]}))
    assert fewer_penalties.details["ranking"][:2] == ["P2", "P1"]
    # P3 and P4 both score 2 with no penalty: P4's kings (26) beat P3's aces (2).
    rank_sum = engine.check(deal({"P3": ["SA", "HA"], "P4": ["SK", "HK"]}))
    assert rank_sum.details["ranking"][:2] == ["P4", "P3"]
    assert rank_sum.details["captured_rank_sum"]["P4"] == 26
    # P2 and P3 equal in everything: P2 plays first after the dealer P1.
    seat_order = engine.check(deal({"P3": ["SK"], "P2": ["HK"]}))
    assert seat_order.details["ranking"][:2] == ["P2", "P3"]
    assert seat_order.details["winner"] == "P2"
    assert seat_order.details["next_dealer"] == "P2"


def test_the_joker_counts_zero_in_the_rank_sum():
    result = engine.check(deal({"P1": ["JK", "SA"]}))
    assert result.details["captured_rank_sum"]["P1"] == 1


def test_only_face_cards_and_jokers_may_be_listed_and_no_more_jokers_than_the_rules_allow():
    result = engine.check(deal({"P1": ["S5"], "P2": ["JK", "JK"]}, jokers=1))
    found = [(e.code, e.path) for e in result.errors]
    assert ("not_a_face_card", "captured.P1[0]") in found
    assert ("too_many_copies", "captured.P2[1]") in found
    assert [e.code for e in engine.check(deal({}, jokers=4)).errors] == ["out_of_range"]


def test_a_match_is_twelve_deals_won_by_the_highest_total_ties_by_deals_won():
    # P1 wins 6 deals by 1 point; P2 wins 6 by 1 point too: equal totals (6 each)...
    deals = [deal({"P1": ["SK"]}) for _ in range(6)] + [deal({"P2": ["SK"]}) for _ in range(5)]
    # ...then P3 wins the last deal with 2 points: totals P1 6, P2 5, P3 2.
    deals.append(deal({"P3": ["SK", "HK"]}))
    record = {"game": "comp13", "players": PLAYERS, "rules": {"jokers": 1}, "deals": deals}
    result = engine.check_match(record)
    assert result.valid and result.finished
    assert result.winner == "P1"
    assert [(s.player, s.total, s.deals_won, s.rank) for s in result.standings][:3] == [
        ("P1", 6, 6, 1),
        ("P2", 5, 5, 2),
        ("P3", 2, 1, 3),
    ]


def test_equal_totals_are_separated_by_deals_won():
    deals = [deal({"P1": ["SK", "HK", "DK"]}), deal({"P2": ["SK"]}), deal({"P2": ["SK", "HK"]})]
    result = engine.check_match(
        {"game": "comp13", "players": PLAYERS, "rules": {"jokers": 1}, "target": 3, "deals": deals}
    )
    assert result.finished
    assert [s.player for s in result.standings][:2] == ["P2", "P1"]  # both 3 points, P2 won 2
    assert result.winner == "P2"


def test_a_deal_after_the_last_one_is_refused_and_fewer_deals_is_not_finished():
    deals = [deal({"P1": ["SK"]}) for _ in range(3)]
    base = {"game": "comp13", "players": PLAYERS, "rules": {"jokers": 1}, "target": 2}
    over = engine.check_match({**base, "deals": deals})
    assert [(e.code, e.path) for e in over.errors] == [("match_over", "deals[2]")]
    short = engine.check_match({**base, "deals": deals[:1]})
    assert short.valid and not short.finished and short.winner is None


def test_deal_errors_inside_a_match_carry_the_deals_path():
    bad = deal({"P1": ["S3"]})
    result = engine.check_match({"game": "comp13", "players": PLAYERS, "deals": [bad]})
    assert ("not_a_face_card", "deals[0].captured.P1[0]") in [
        (e.code, e.path) for e in result.errors
    ]


def test_a_match_reports_the_next_provisional_dealer_the_last_deals_winner():
    deals = [deal({"P3": ["SK"]}), deal({"P2": ["SK", "HK"]})]
    result = engine.check_match(
        {"game": "comp13", "players": PLAYERS, "rules": {"jokers": 1}, "deals": deals}
    )
    assert result.next_dealer == "P2"
    assert result.to_dict()["next_dealer"] == "P2"


def test_the_last_tie_break_runs_from_the_dealer_named_in_the_record():
    tied = deal({"P1": ["SK"], "P3": ["HK"]})
    assert engine.check(tied).details["winner"] == "P1"
    assert engine.check({**tied, "dealer": "P2"}).details["winner"] == "P3"
    assert [e.code for e in engine.check({**tied, "dealer": "P9"}).errors] == ["unknown_player"]
