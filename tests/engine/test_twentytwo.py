"""Twenty-Two: every rule on hand-built positions, the match rules, and random legal games."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.games.twentytwo import random_deal, random_match

P3 = ["A", "B", "C"]


def deal(**fields):
    return {"game": "twentytwo", "players": P3, "dealer": "C", **fields}


def codes(result):
    return [e.code for e in result.errors]


def full(hands, tricks, *, stock=("D2", "D3", "D4"), exchanges=(), players=P3, dealer="C", **kw):
    return {
        "game": "twentytwo",
        "players": players,
        "dealer": dealer,
        "hand_size": len(next(iter(hands.values())).split()),
        "hands": {p: h.split() for p, h in hands.items()},
        "stock": list(stock),
        "exchanges": list(exchanges),
        "tricks": [{"plays": [{"player": p, "cards": c.split()} for p, c in t]} for t in tricks],
        **kw,
    }


# -- the last trick and its penalty -------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "points", "gambling_points"),
    [
        ("SA", 11, 14),
        ("SK", 10, 13),
        ("SQ", 10, 12),
        ("SJ", 10, 11),
        ("S10", 10, 10),
        ("S9", 9, 9),
        ("S2", 2, 2),
    ],
)
def test_the_highest_last_card_loses_its_penalty(card, points, gambling_points):
    last = {"A": card, "B": "H2", "C": "D2"} if card != "S2" else {"A": "S2", "B": "H2", "C": "C2"}
    result = engine.check(deal(last_trick=last))
    assert result.valid
    assert result.scores["A"] == -points
    gambling = engine.check(deal(last_trick=last, rules={"gambling": True}))
    assert gambling.scores["A"] == -gambling_points


def test_every_player_tied_for_highest_loses():
    result = engine.check(deal(last_trick={"A": "SK", "B": "HK", "C": "D5"}))
    assert result.details["losers"] == ["A", "B"]
    assert result.scores == {"A": -10, "B": -10, "C": 0}
    assert result.winners == ("C",)
    assert result.details["next_dealer"] is None


def test_a_single_loser_deals_next():
    assert (
        engine.check(deal(last_trick={"A": "S3", "B": "H9", "C": "D5"})).details["next_dealer"]
        == "B"
    )


def test_the_last_trick_names_every_player_with_one_card():
    result = engine.check(deal(last_trick={"A": "S3", "B": "XX"}))
    assert set(codes(result)) == {"invalid_card", "missing_player"}


def test_one_deck_holds_each_card_once_and_seven_players_use_two():
    assert codes(engine.check(deal(last_trick={"A": "S3", "B": "S3", "C": "D5"}))) == [
        "too_many_copies"
    ]
    seven = [f"P{i}" for i in range(7)]
    last = dict(zip(seven, ["SK", "SK", "SK", "H3", "H3", "D3", "D3"], strict=True))
    assert codes(
        engine.check({"game": "twentytwo", "players": seven, "dealer": "P0", "last_trick": last})
    ) == ["too_many_copies"]
    last["P2"] = "S4"
    result = engine.check(
        {"game": "twentytwo", "players": seven, "dealer": "P0", "last_trick": last}
    )
    assert result.valid, result.errors


def test_hands_must_fit_in_the_decks():
    result = engine.check(deal(hand_size=18, last_trick={"A": "S3", "B": "H9", "C": "D5"}))
    assert codes(result) == ["out_of_range"]


# -- the dealer ---------------------------------------------------------------------------


def test_the_highest_draw_deals_and_ties_draw_again():
    ok = deal(
        draw=[{"A": "SK", "B": "HK", "C": "D2"}, {"A": "S4", "B": "H9"}],
        dealer="B",
        last_trick={"A": "S3", "B": "H9", "C": "D5"},
    )
    assert engine.check(ok).valid
    assert codes(engine.check({**ok, "dealer": "A"})) == ["wrong_dealer"]
    tied = {**ok, "draw": [{"A": "SK", "B": "HK", "C": "D2"}]}
    assert codes(engine.check(tied)) == ["wrong_draw"]
    wrong_round = {**ok, "draw": [{"A": "SK", "B": "HK", "C": "D2"}, {"A": "S4", "C": "H9"}]}
    assert "unknown_player" in codes(engine.check(wrong_round))


# -- full play ----------------------------------------------------------------------------

HANDS = {"A": "S2 S5 SK", "B": "H3 H5 H9", "C": "C4 C7 CQ"}


def test_a_full_deal_replays_to_its_last_trick():
    record = full(
        HANDS, [[("A", "S5"), ("B", "H9"), ("C", "CQ")], [("C", "C7"), ("A", "SK"), ("B", "H3")]]
    )
    result = engine.check(record)
    assert result.valid, result.errors
    assert result.details["trick_winners"] == ["C", "A"]
    assert result.details["last_trick"] == {"A": "S2", "B": "H5", "C": "C4"}
    assert result.scores == {"A": 0, "B": -5, "C": 0}
    assert engine.check(engine.summarize(record)).scores == result.scores


def test_a_follow_meets_or_beats_or_else_plays_the_lowest_card():
    # B holds H3 H5 H9 against the Q: nothing meets it, so the lowest card, H3, not H5.
    record = full(HANDS, [[("A", "SK"), ("B", "H5"), ("C", "CQ")]])
    result = engine.check(record)
    assert codes(result) == ["illegal_follow"]
    assert result.errors[0].path == "tricks[0].plays[1].cards"


def test_an_equal_card_meets_and_the_last_of_equal_highest_wins():
    hands = {"A": "S9 S5 S2", "B": "H9 H3 H2", "C": "C4 C7 CQ"}
    record = full(
        hands, [[("A", "S9"), ("B", "H9"), ("C", "C4")], [("B", "H2"), ("C", "C7"), ("A", "S2")]]
    )
    result = engine.check(record)
    assert result.valid, result.errors
    assert result.details["trick_winners"][0] == "B"


def test_set_leads_leave_a_card_and_follows_beat_card_by_card():
    """例2 and 例3 of the rulebook, with four players holding seven cards."""
    players = ["W", "X", "Y", "Z"]
    hands = {
        "W": "S6 H6 D6 S2 S3 S4 H4",
        "X": "C10 H9 C7 S5 D5 C5 H5",
        "Y": "SK S9 S8 C2 C3 D3 D4",
        "Z": "HK DK D7 H3 CK C8 CA",
    }
    first = [("W", "S6 H6 D6"), ("X", "C10 H9 C7"), ("Y", "SK S9 S8"), ("Z", "H3 DK D7")]
    record = full(hands, [first], players=players, dealer="Z", stock=["HA"])
    # Z holds K K K A: K≥K, K≥9, A≥8 would beat; H3 DK D7 neither beats nor is the lowest three.
    assert codes(engine.check(record)) == ["illegal_follow"]
    first[3] = ("Z", "HK DK CA")
    record = full(hands, [first], players=players, dealer="Z", stock=["HA"])
    assert codes(engine.check(record)) == ["wrong_trick_count"]  # the hands still hold four cards
    two = {p: " ".join(h.split()[:2]) for p, h in hands.items()}
    lead_all = full(
        two,
        [[("W", "S6 H6"), ("X", "C10 H9"), ("Y", "SK S9"), ("Z", "HK DK")]],
        players=players,
        dealer="Z",
    )
    assert codes(engine.check(lead_all)) == ["illegal_lead"]


def test_a_lowest_cards_follow_is_judged_by_rank():
    players = ["W", "X"]
    hands = {"W": "SK HK S2", "X": "H3 D3 H4"}
    record = full(
        hands, [[("W", "SK HK"), ("X", "D3 H3")]], players=players, dealer="X", stock=["C9"]
    )
    assert engine.check(record).valid
    mixed = full(
        hands, [[("W", "SK HK"), ("X", "H4 H3")]], players=players, dealer="X", stock=["C9"]
    )
    assert codes(engine.check(mixed)) == ["illegal_follow"]


def test_a_lead_of_two_ranks_is_illegal():
    record = full(HANDS, [[("A", "S2 S5"), ("B", "H3 H5"), ("C", "C4 C7")]])
    assert codes(engine.check(record)) == ["illegal_lead"]


def test_plays_go_round_from_the_dealers_left_and_from_the_winner():
    record = full(HANDS, [[("B", "H9"), ("C", "CQ"), ("A", "S5")]])
    assert codes(engine.check(record)) == ["wrong_order"]


def test_a_card_not_held_is_named():
    record = full(HANDS, [[("A", "SA"), ("B", "H9"), ("C", "CQ")]])
    assert codes(engine.check(record)) == ["card_not_held"]


def test_the_exchange_draws_from_the_top_and_never_more_than_the_stock():
    tricks = [[("A", "S5"), ("B", "H9"), ("C", "CQ")], [("C", "C7"), ("A", "SK"), ("B", "H3")]]
    ok = full(HANDS, tricks, exchanges=[{"player": "A", "discard": ["S2"], "draw": ["D2"]}])
    result = engine.check(ok)
    assert result.valid, result.errors
    assert result.details["last_trick"]["A"] == "D2"
    wrong = full(HANDS, tricks, exchanges=[{"player": "A", "discard": ["S2"], "draw": ["D3"]}])
    assert codes(engine.check(wrong)) == ["wrong_draw"]
    too_many = full(
        HANDS,
        tricks,
        stock=["D2"],
        exchanges=[{"player": "A", "discard": ["S2", "S5"], "draw": ["D2"]}],
    )
    assert codes(engine.check(too_many)) == ["stock_exhausted"]
    order = full(
        HANDS, tricks, exchanges=[{"player": "B", "discard": []}, {"player": "A", "discard": []}]
    )
    assert codes(engine.check(order)) == ["wrong_order"]


def test_full_play_must_agree_with_a_given_last_trick():
    tricks = [[("A", "S5"), ("B", "H9"), ("C", "CQ")], [("C", "C7"), ("A", "SK"), ("B", "H3")]]
    record = full(HANDS, tricks, last_trick={"A": "S2", "B": "H3", "C": "C4"})
    assert codes(engine.check(record)) == ["replay_mismatch"]


# -- matches ------------------------------------------------------------------------------


def summary_match(lasts, **extra):
    return {
        "game": "twentytwo",
        "players": P3,
        "deals": [{"last_trick": t, **d} for t, d in lasts],
        **extra,
    }


def test_players_reaching_22_are_out_and_the_survivor_wins():
    lasts = [({"A": "SA", "B": "H2", "C": "D3"}, {"dealer": "C"}),
             ({"A": "HA", "B": "H3", "C": "D4"}, {}),
             ({"B": "H5", "C": "CA"}, {"dealer": "B"}),
             ({"B": "HK", "C": "C5"}, {}),
             ({"B": "H6", "C": "CK"}, {}),
             ({"B": "H7", "C": "CQ"}, {})]  # fmt: skip
    result = engine.check_match(summary_match(lasts))
    assert result.valid, result.errors
    assert result.details["eliminated"] == {"A": 2, "C": 6}
    assert result.details["penalties"] == {"A": 22, "B": 10, "C": 31}
    assert result.finished
    assert result.winner == "B"
    assert [s.player for s in result.standings] == ["B", "C", "A"]
    assert result.next_deal == {}


def test_a_penalty_card_stays_out_of_the_deck():
    lasts = [
        ({"A": "SA", "B": "H2", "C": "D3"}, {"dealer": "C"}),
        ({"A": "SA", "B": "H3", "C": "D4"}, {}),
    ]
    result = engine.check_match(summary_match(lasts))
    assert codes(result) == ["card_out"]
    assert result.errors[0].path == "deals[1].last_trick.A"


def test_the_loser_deals_the_penalty_as_hand_size():
    lasts = [({"A": "S9", "B": "H2", "C": "D3"}, {"dealer": "C"})]
    result = engine.check_match(summary_match(lasts))
    assert result.next_deal == {"players": P3, "hand_size": 9, "decks": 1, "dealer": "A"}
    wrong = summary_match(lasts + [({"A": "S4", "B": "H2", "C": "D3"}, {"dealer": "B"})])
    assert codes(engine.check_match(wrong)) == ["wrong_dealer"]
    size = summary_match(lasts + [({"A": "S4", "B": "H2", "C": "D3"}, {"hand_size": 7})])
    assert codes(engine.check_match(size)) == ["wrong_hand_size"]
    assert engine.check_match(size).errors[0].path == "deals[1].hand_size"


def test_the_hand_size_is_what_the_cards_left_allow_equal_for_all():
    six = [f"P{i}" for i in range(6)]
    last = dict(zip(six, ["SA", "H2", "D2", "C2", "S3", "H3"], strict=True))
    result = engine.check_match(
        {"game": "twentytwo", "players": six, "deals": [{"dealer": "P5", "last_trick": last}]}
    )
    assert result.next_deal["hand_size"] == 8  # 51 cards left (the ace is out), 8 each, not 11


def test_eliminated_players_leave_the_next_deals_players():
    lasts = [
        ({"A": "SA", "B": "H2", "C": "D3"}, {"dealer": "C"}),
        ({"A": "HA", "B": "H2", "C": "D3"}, {}),
    ]
    result = engine.check_match(summary_match(lasts))
    assert result.next_deal["players"] == ["B", "C"]
    assert result.next_deal.get("dealer") is None  # the loser is out: everyone draws
    more = summary_match(
        lasts + [({"A": "S2", "B": "H2", "C": "D3"}, {"dealer": "B", "players": P3})]
    )
    assert codes(engine.check_match(more)) == ["players_mismatch"]
    left_out = summary_match(lasts + [({"A": "S2", "B": "H2", "C": "D3"}, {"dealer": "B"})])
    assert codes(engine.check_match(left_out)) == ["unknown_player"]


@pytest.mark.parametrize(("all_out", "winners"), [("last_out", ("A", "B")), ("lowest", ("B",))])
def test_everyone_out_at_once_by_the_chosen_resolution(all_out, winners):
    two = ["A", "B"]
    deals = [{"dealer": "B", "last_trick": {"A": "SA", "B": "HA"}},
             {"dealer": "A", "draw": [{"A": "S9", "B": "H2"}], "last_trick": {"A": "S3", "B": "H2"}},
             {"last_trick": {"A": "DA", "B": "CA"}}]  # fmt: skip
    result = engine.check_match(
        {"game": "twentytwo", "players": two, "rules": {"all_out": all_out}, "deals": deals}
    )
    assert result.valid, result.errors
    assert result.details["penalties"] == {"A": 25, "B": 22}
    assert result.details["in"] == []
    assert result.winners == winners


def test_several_losers_still_in_draw_for_the_deal():
    lasts = [({"A": "SK", "B": "HK", "C": "D3"}, {"dealer": "C"})]
    ok = summary_match(
        lasts
        + [({"A": "S2", "B": "H2", "C": "D9"}, {"dealer": "A", "draw": [{"A": "S9", "B": "H2"}]})]
    )
    assert engine.check_match(ok).valid
    bad = summary_match(lasts + [({"A": "S2", "B": "H2", "C": "D9"}, {"dealer": "C"})])
    assert codes(engine.check_match(bad)) == ["wrong_dealer"]
    wrong_drawers = summary_match(
        lasts
        + [({"A": "S2", "B": "H2", "C": "D9"}, {"dealer": "A", "draw": [{"A": "S9", "C": "H2"}]})]
    )
    assert "wrong_draw" in codes(engine.check_match(wrong_drawers))


def test_gambling_buy_back_once_keeps_the_total_before_the_deal():
    four = ["A", "B", "C", "D"]
    rules = {"gambling": True}
    deals = [{"dealer": "D", "last_trick": {"A": "SA", "B": "H2", "C": "D2", "D": "C2"}},
             {"last_trick": {"A": "HA", "B": "H2", "C": "D3", "D": "C2"}},
             {"last_trick": {"A": "S5", "B": "H2", "C": "D3", "D": "C2"}, "buy_back": ["A"]}]  # fmt: skip
    result = engine.check_match(
        {"game": "twentytwo", "players": four, "rules": rules, "deals": deals}
    )
    assert result.valid, result.errors
    assert result.details["penalties"]["A"] == 28
    assert result.details["bought_back"] == {"A": 3}
    again = deals + [
        {"last_trick": {"A": "S6", "B": "H2", "C": "D3", "D": "C2"}, "buy_back": ["A"]}
    ]
    assert codes(
        engine.check_match({"game": "twentytwo", "players": four, "rules": rules, "deals": again})
    ) == ["bought_back_twice"]
    early = [
        *deals[:1],
        {"last_trick": {"A": "S5", "B": "H2", "C": "D3", "D": "C2"}, "buy_back": ["A"]},
    ]
    assert codes(
        engine.check_match({"game": "twentytwo", "players": four, "rules": rules, "deals": early})
    ) == ["not_eliminated"]


def test_gambling_no_buy_back_with_three_and_the_fewest_points_win():
    assert codes(
        engine.check(
            deal(
                rules={"gambling": True},
                last_trick={"A": "SA", "B": "H2", "C": "D3"},
                buy_back=["A"],
            )
        )
    ) == ["no_buy_back"]
    assert codes(
        engine.check(deal(last_trick={"A": "SA", "B": "H2", "C": "D3"}, buy_back=["A"]))
    ) == ["not_applicable"]
    lasts = [
        ({"A": "SA", "B": "H5", "C": "D3"}, {"dealer": "C"}),
        ({"A": "HA", "B": "H2", "C": "D3"}, {}),
        ({"A": "DA", "B": "H2", "C": "D3"}, {}),
    ]
    result = engine.check_match(summary_match(lasts, rules={"gambling": True}))
    assert result.finished
    assert result.details["in"] == ["B", "C"]
    assert result.winners == ("B", "C")  # neither took a penalty: a shared win


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    n=st.integers(2, 8),
    rules=st.sampled_from([{}, {"gambling": True}, {"all_out": "lowest"}]),
)
def test_random_legal_matches_replay_to_a_finish(seed, n, rules):
    players = [f"P{i}" for i in range(n)]
    match = random_match(random.Random(seed), players, rules)
    result = engine.check_match(match)
    assert result.valid, result.errors
    assert result.finished and result.winners
    for record, checked in zip(match["deals"], result.deals, strict=True):
        summary = engine.summarize({**record, "rules": rules})
        assert engine.check(summary).scores == checked.scores
        dealt = sum(len(h) for h in record["hands"].values()) + len(record["stock"])
        assert dealt <= 52 * record["decks"]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9), n=st.integers(2, 6))
def test_every_card_played_once_and_the_last_trick_is_what_is_left(seed, n):
    players = [f"P{i}" for i in range(n)]
    record = random_deal(random.Random(seed), players, players[-1])
    result = engine.check(record)
    assert result.valid, result.errors
    played = [c for t in record["tricks"] for p in t["plays"] for c in p["cards"]]
    drawn = [c for e in record["exchanges"] for c in e["draw"]]
    discarded = [c for e in record["exchanges"] for c in e["discard"]]
    held = [c for h in record["hands"].values() for c in h] + drawn
    for c in discarded:
        held.remove(c)
    for c in played:
        held.remove(c)
    assert sorted(held) == sorted(result.details["last_trick"].values())


@pytest.mark.parametrize("plays", [1, 2, 4])
def test_a_trick_lists_one_play_by_each_player(plays):
    record = full({"A": "S2 SA", "B": "H2 HA", "C": "D5 CA"}, [])
    seats = ["A", "B", "C", "A"][:plays]
    record["tricks"] = [{"plays": [{"player": p, "cards": ["S2"]} for p in seats]}]
    assert [e.to_dict() for e in engine.check(record).errors] == [
        {
            "code": "wrong_play_count",
            "path": "tricks[0].plays",
            "message": "every one of the 3 players plays once",
            "params": {"n": 3},
        }
    ]
