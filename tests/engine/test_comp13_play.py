"""Comp-13 move by move: every play rule on a hand-built position (the rulebook's sections)."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.cards import Card, standard_deck
from engine.deal import play_match
from engine.games.comp13_play import random_comp13_deal
from engine.games.comp13_table import Deal, MoveError

P = ["P1", "P2", "P3", "P4"]


def cards(text):
    return [Card(c) for c in text.split()]


def position(fields, hands=None, stock="S2 S3 S4 S5 S6 S7 S8 S9"):
    deal = Deal(
        players=list(P),
        hands={p: cards((hands or {}).get(p, "")) for p in P},
        stock=cards(stock),
        captured={p: [] for p in P},
    )
    deal.fields = [cards(f) for f in fields]
    return deal


def play(deal, player, kind, field=None, card=None, take="", capture=None):
    fields = "ABCD"
    deal.play(
        player,
        {"play": kind},
        Card(card) if card else None,
        cards(take),
        fields.index(field) if field else None,
        fields.index(capture) if capture else None,
    )


def codes(cs):
    return sorted(c.code for c in cs)


# ① attach ------------------------------------------------------------------------------------


def test_attach_a_card_of_the_fields_suit():
    deal = position(["H9", "S5", "D6", "C7"], {"P1": "H3 S2"})
    play(deal, "P1", "attach", "A", "H3")
    assert codes(deal.fields[0]) == ["H3", "H9"] and codes(deal.hands["P1"]) == ["S2"]
    with pytest.raises(MoveError) as wrong:
        play(deal, "P1", "attach", "A", "S2")
    assert wrong.value.code == "wrong_suit"


def test_a_field_adds_up_to_at_most_20_and_the_four_to_at_most_52():
    deal = position(["HQ H5", "S5", "D6", "C7"], {"P1": "H4"})  # 17 + 4 = 21
    with pytest.raises(MoveError) as over:
        play(deal, "P1", "attach", "A", "H4")
    assert over.value.code == "field_limit"
    # The rulebook's example: A 14, B 12, C 15, D ♠10: ♠A fits, ♠3 would make 54.
    deal = position(["HJ H3", "DQ", "C10 C5", "S10"], {"P1": "SA S3"})
    with pytest.raises(MoveError) as table:
        play(deal, "P1", "attach", "D", "S3")
    assert table.value.code == "table_limit"
    play(deal, "P1", "attach", "D", "SA")  # exactly 52: an All-Ground
    assert codes(deal.captured["P1"]) == ["C10", "DQ", "HJ", "S10", "SA"]


def test_a_joker_never_leaves_a_hand_and_a_joker_field_takes_nothing():
    deal = position(["JK", "S5", "D6", "C7"], {"P1": "JK S2 H3"})
    with pytest.raises(MoveError) as joker:
        play(deal, "P1", "attach", "B", "JK")
    assert joker.value.code == "joker_played"
    with pytest.raises(MoveError) as field:
        play(deal, "P1", "attach", "A", "H3")
    assert field.value.code == "joker_field"


# ② change, ③ ④ exchange ------------------------------------------------------------------------


def test_change_swaps_a_one_card_field_for_the_same_rank_of_another_suit():
    deal = position(["C8", "S5", "D6", "C7"], {"P1": "H8 D8"})
    play(deal, "P1", "change", "A", "H8")
    assert codes(deal.fields[0]) == ["H8"] and "C8" in codes(deal.hands["P1"])
    deal = position(["C8 C2", "S5", "D6", "C7"], {"P1": "H8"})
    with pytest.raises(MoveError):
        play(deal, "P1", "change", "A", "H8")  # not a one-card field


def test_exchange_one_for_one_needs_a_field_of_two_or_more():
    deal = position(["D9 D2", "S5", "D6", "C7"], {"P1": "DJ"})
    play(deal, "P1", "exchange", "A", "DJ", take="D9")  # 2 + 11 = 13: Comp
    assert codes(deal.captured["P1"]) == ["DJ"]
    deal = position(["D9", "S5", "D6", "C7"], {"P1": "D4"})
    with pytest.raises(MoveError) as single:
        play(deal, "P1", "exchange", "A", "D4", take="D9")
    assert single.value.code == "illegal_exchange"


def test_exchange_one_for_two_needs_the_hand_card_to_equal_the_two_cards_sum():
    deal = position(["DA D9 D2", "S5", "H6", "C7"], {"P1": "DJ DK"})
    play(deal, "P1", "exchange", "A", "DJ", take="D9 D2")  # 11 = 9 + 2: A J stays 12
    assert codes(deal.fields[0]) == ["DA", "DJ"] and deal.captured["P1"] == []
    with pytest.raises(MoveError) as bad:
        play(deal, "P1", "exchange", "A", "DK", take="DA DJ")  # 13 is not 1 + 11
    assert bad.value.code == "illegal_exchange"


def test_draw_takes_the_top_of_the_stock_and_the_deal_ends_when_it_is_empty():
    deal = position(["D9", "S5", "H6", "C7"], stock="H2")
    play(deal, "P1", "draw")
    assert codes(deal.hands["P1"]) == ["H2"] and deal.over == "stock"


# Comp ----------------------------------------------------------------------------------------


def test_two_card_comp_takes_its_face_cards_and_one_single_face_card():
    deal = position(["HJ", "SK", "D6 DQ", "CA"], {"P1": "H2"}, stock="S2 S3 S4")
    play(deal, "P1", "attach", "A", "H2", capture="B")
    assert codes(deal.captured["P1"]) == ["HJ", "SK"]
    assert [codes(f) for f in deal.fields] == [
        ["S2"],
        ["S3"],
        ["D6", "DQ"],
        ["CA"],
    ]  # refilled A, B


def test_two_card_comp_cannot_take_from_a_field_of_two():
    deal = position(["HJ", "SK", "D6 DQ", "CA"], {"P1": "H2"})
    with pytest.raises(MoveError) as bad:
        play(deal, "P1", "attach", "A", "H2", capture="C")
    assert bad.value.code == "illegal_capture"


def test_three_card_comp_takes_every_face_card_of_one_other_field():
    deal = position(["HQ", "SK S5", "D6 D4", "C7"], {"P1": "HA"})
    play(deal, "P1", "attach", "A", "HA")  # ♡Q + ♡A = 13 with two cards: a 2-card Comp
    deal = position(["H10 H2", "SK S5", "D6", "C7"], {"P1": "HA"})
    play(deal, "P1", "attach", "A", "HA", capture="B")  # 10 + 2 + 1: a 3-card Comp
    assert codes(deal.captured["P1"]) == ["H10", "HA", "SK"]


def test_the_kings_of_the_comped_suit_go_to_the_comping_and_the_next_player():
    deal = position(["H9", "S5", "D6", "C7"], {"P1": "H4 HK", "P2": "HK", "P3": "HK"})
    play(deal, "P1", "attach", "A", "H4")
    assert codes(deal.captured["P1"]) == ["HK"] and codes(deal.captured["P2"]) == ["HK"]
    assert codes(deal.hands["P3"]) == ["HK"]  # the third player keeps it


def test_a_king_from_the_stock_or_a_king_change_is_no_comp():
    deal = position(["SK", "S5", "D6", "C7"], {"P1": "HK"})
    play(deal, "P1", "change", "A", "HK")
    assert deal.captured["P1"] == [] and codes(deal.fields[0]) == ["HK"]
    deal = position(["H9", "S5", "D6", "C7"], {"P1": "H4"}, stock="DK S2 S3")
    play(deal, "P1", "attach", "A", "H4")
    assert codes(deal.fields[0]) == ["DK"] and deal.captured["P1"] == []


def test_a_comp_whose_refill_reaches_52_is_nagare():
    # A 3-card Comp of A (10 + 2 + 1) takes field B too; the two kings refilled make 61.
    deal = position(["H10 H2", "SA S2", "DK D7", "CQ C3"], {"P1": "HA"}, stock="SK HK S3")
    play(deal, "P1", "attach", "A", "HA", capture="B")
    assert deal.over == "nagare" and deal.total() == 61


def test_a_comp_that_empties_the_stock_ends_the_deal():
    deal = position(["H9", "S5", "D6", "C7"], {"P1": "H4"}, stock="S2")
    play(deal, "P1", "attach", "A", "H4")
    assert deal.over == "stock"


# All-Ground ------------------------------------------------------------------------------------


def test_all_ground_goes_before_comp_and_takes_the_fields_and_every_hands_kings_and_jokers():
    deal = position(
        ["HJ", "SQ S8", "DK D5", "CA"], {"P1": "H2 SK", "P2": "CK JK S3"}, stock="S2 S3 S4 S5 S6 S7"
    )
    play(deal, "P1", "attach", "A", "H2")  # A makes 13, but the four make 52: All-Ground
    assert codes(deal.captured["P1"]) == ["CA", "DK", "HJ", "SK", "SQ"]
    assert codes(deal.captured["P2"]) == ["CK", "JK"] and codes(deal.hands["P2"]) == ["S3"]
    assert [codes(f) for f in deal.fields] == [["S2"], ["S3"], ["S4"], ["S5"]]


def test_all_ground_with_four_or_fewer_cards_left_ends_the_deal():
    deal = position(["HJ", "SQ S8", "DK D5", "CA"], {"P1": "H2"}, stock="S2 S3 S4 S5")
    play(deal, "P1", "attach", "A", "H2")
    assert deal.over == "stock"


def test_four_kings_after_an_all_ground_are_nagare():
    deal = position(["HJ", "SQ S8", "DK D5", "CA"], {"P1": "H2"}, stock="SK HK DK CK S2")
    play(deal, "P1", "attach", "A", "H2")
    assert deal.over == "nagare"


# Dealer selection (親決め) and the record -------------------------------------------------------


def full(hands, stock, moves, dealer_card=None, jokers=0):
    record = {
        "game": "comp13",
        "players": P,
        "rules": {"jokers": jokers},
        "hands": {p: h.split() for p, h in zip(P, hands, strict=True)},
        "stock": stock.split(),
        "moves": moves,
    }
    if dealer_card:
        record["dealer_card"] = dealer_card
    return record


def rest_of_deck(*used):
    taken = {c for text in used for c in text.split()}
    return " ".join(c for c in standard_deck() if c not in taken)


def test_the_holder_of_field_As_ura_card_deals_lays_d_and_the_next_player_starts():
    hands = ["S3 S4 S6 S7", "H8 H3 H4 H6", "C8 D3 D4 D6", "C3 C4 C6 C9"]
    top = "D8 S5 H5"  # A ♢8: its 裏札 ♡8 is P2's; B and C from the stock, D from P2's hand
    stock = top + " " + rest_of_deck(*hands, top)
    record = full(hands, stock, [], dealer_card="H3")
    result = engine.check(record)
    assert ("deal_not_over", "moves") in [(e.code, e.path) for e in result.errors]
    record["moves"] = [{"player": "P2", "play": "draw"}]
    assert [e.code for e in engine.check(record).errors][0] == "wrong_order"


def test_without_ura_cards_the_highest_field_card_makes_the_dealer_who_plays_first():
    hands = ["S3 S4 S6 S7", "H2 H3 H4 H6", "D2 D3 D4 D6", "C2 C3 C4 C6"]
    top = "D9 SQ HQ C5"  # no 裏札 held; ♠Q beats ♡Q on suit: P2 (field B) deals
    stock = top + " " + rest_of_deck(*hands, top)
    record = full(hands, stock, [{"player": "P1", "play": "draw"}])
    assert [e.code for e in engine.check(record).errors] == ["wrong_order"]


def test_four_kings_turned_up_at_the_deal_are_nagare_and_hands_count_against():
    hands = ["S3 S4 S6 SA", "H2 H3 H4 H6", "D2 D3 D4 D6", "C2 C3 C4 C6"]
    top = "DK SK HK CK"
    stock = top + " " + rest_of_deck(*hands, top)
    result = engine.check(full(hands, stock, []))
    assert result.valid, result.errors
    assert result.details["ended"] == "nagare" and result.scores["P1"] == -1


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), n=st.sampled_from([2, 3, 4]), jokers=st.integers(0, 3))
def test_random_legal_games_replay_and_conserve_every_card(seed, n, jokers):
    players = P[:n]
    deck = standard_deck(jokers=jokers)
    record = random_comp13_deal(players, deck, random.Random(seed), jokers)
    result = engine.check(record)
    assert result.valid, [e.to_dict() for e in result.errors]
    captured = [c for cs in result.details["captured"].values() for c in cs]
    assert len(captured) == len(set(captured)) or jokers > 1
    assert all(Card(c).is_face or c == "JK" for c in captured)
    start = players.index(result.details["dealer"] or players[0])
    summary = {
        "game": "comp13",
        "players": players[start:] + players[:start],
        "rules": {"jokers": jokers},
        "captured": result.details["captured"],
        "hand_faces": result.details["hand_faces"],
    }
    assert engine.check(summary).scores == result.scores
    # The engine's own summary keeps the seating and names the dealer instead.
    assert engine.check(engine.summarize(record)).scores == result.scores


def test_a_dealer_given_with_a_full_play_must_be_the_one_its_dealer_selection_finds():
    """M1: ``dealer`` is a summary field (the 親); alongside a replay it must agree."""
    record = random_comp13_deal(P, standard_deck(), random.Random(7))
    dealer = engine.check(record).details["dealer"]
    assert engine.check({**record, "dealer": dealer}).valid
    other = next(p for p in P if p != dealer)
    result = engine.check({**record, "dealer": other})
    assert [(e.code, e.path) for e in result.errors] == [("replay_mismatch", "dealer")]
    assert result.errors[0].params == {"derived": dealer}
    unknown = engine.check({**record, "dealer": "P9"})
    assert [(e.code, e.path) for e in unknown.errors] == [("unknown_player", "dealer")]


def test_the_provisional_dealer_turns_up_field_a_in_front_of_themselves():
    """■親決め: 「山札から1枚めくって仮親の前に置きます」, B to their left, and so on."""
    hands = ["S3 S4 S6 S7", "H2 H3 H4 H6", "D2 D3 D4 D6", "C2 C3 C4 C6"]
    top = "D9 SQ HQ C5"  # no 裏札 held; ♠Q on field B is highest
    stock = top + " " + rest_of_deck(*hands, top)
    record = {**full(hands, stock, [{"player": "P2", "play": "draw"}]), "provisional_dealer": "P3"}
    assert [(e.code, e.params) for e in engine.check(record).errors] == [
        ("wrong_order", {"expected": "P4", "player": "P2"})  # B lies in front of P4
    ]
    record["moves"] = [{"player": "P4", "play": "draw"}]
    assert [e.code for e in engine.check(record).errors] == ["deal_not_over"]
    unknown = engine.check({**record, "provisional_dealer": "P9"})
    assert [(e.code, e.path) for e in unknown.errors] == [("unknown_player", "provisional_dealer")]


def test_in_a_match_each_deal_after_the_first_has_the_last_winner_as_provisional_dealer():
    """D1: 「次の回は、今回の勝者を仮親として親決めより始める」 (000, item 7)."""
    first = random_comp13_deal(P, standard_deck(), random.Random(0))
    winner = engine.check(first).details["winner"]
    assert winner != "P1"
    second = random_comp13_deal(P, standard_deck(), random.Random(1), provisional=winner)
    assert second.pop("provisional_dealer") == winner
    match = {"game": "comp13", "players": P, "deals": [first, second]}
    result = engine.check_match(match)
    assert result.valid, [e.to_dict() for e in result.errors]
    assert engine.check({**second, "provisional_dealer": winner}).scores == result.deals[1].scores
    # the 仮親 is no choice of the record's after the first deal
    other = next(p for p in P if p != winner)
    summary = engine.summarize({**second, "provisional_dealer": winner})
    wrong = engine.check_match(
        {**match, "deals": [first, {**summary, "provisional_dealer": other}]}
    )
    assert [(e.code, e.path) for e in wrong.errors] == [
        ("wrong_dealer", "deals[1].provisional_dealer")
    ]
    assert wrong.errors[0].params == {"dealer": winner}


def test_random_matches_hand_the_provisional_dealer_on_and_check_as_played():
    deals = play_match(engine.GAMES["comp13"], random.Random(4), P, target=4)
    result = engine.check_match({"game": "comp13", "players": P, "target": 4, "deals": deals})
    assert result.valid and result.finished
    for before, after in zip(result.deals[:-1], deals[1:], strict=True):
        assert after["provisional_dealer"] == before.details["winner"]
