"""Rettler's pair leads (2枚回し, table 3.4), 点札請求, 原爆 (table 3.5) and the bridge (3.3.3)."""

import pytest

from engine.cards import Card, Suit
from engine.games.follow import is_legal
from engine.games.leads import Lead, classify_lead, duty_for, resolve
from engine.games.tricks import TrickContext, Trump


def ctx_for(trump="diamonds", **kw):
    return TrickContext(
        Trump(trump),
        first=kw.get("first", False),
        last=kw.get("last", False),
        rettler=True,
        named=kw.get("named"),
        point_call=kw.get("point_call", False),
    )


def play(plays, trump="diamonds", **kw):
    """Resolve a trick: ``plays`` are space-separated cards, the lead first."""
    ctx = ctx_for(trump, **kw)
    cards = [[Card(c) for c in p.split()] for p in plays]
    lead = classify_lead(cards[0], ctx, kw.get("players", len(plays)))
    assert isinstance(lead, Lead), lead
    return resolve(cards, lead, ctx)


def winner(plays, trump="diamonds", **kw):
    return play(plays, trump, **kw).winner


# Table 3.4, trump ♢, a ♣ pair led; ranks as numbered in the table. ---------------------------


def test_rank_1_double_mighty_beats_a_double_true_jack_and_is_a_little():
    outcome = play(["C5 C5", "SA SA", "DJ DJ", "C7 C8"])
    assert outcome.winner == 1 and outcome.little


def test_rank_1_double_mighty_falls_only_to_double_yoromeki_and_its_answers_in_pairs():
    assert winner(["C5 C5", "SA SA", "HQ HQ", "C7 C8"]) == 2
    assert winner(["C5 C5", "SA SA", "HQ HQ", "HK HK"]) == 3
    assert winner(["C5 C5", "SA SA", "HQ HQ", "HK HK", "HA HA"]) == 4
    assert winner(["C5 C5", "SA SA", "HQ C3", "HK C4"]) == 1  # single answers are not enough
    assert not play(["C5 C5", "SA SA", "HQ HQ", "C7 C8"]).little


def test_rank_2_a_led_double_joker_is_a_little_beaten_only_by_double_mighty():
    outcome = play(["JK JK", "DJ DJ", "DA DA", "D7 D8"])
    assert outcome.winner == 0 and outcome.little
    assert winner(["JK JK", "SA SA", "D3 D4", "D7 D8"]) == 1


def test_rank_3_and_4_double_true_jack_beats_double_false_jack_both_littles():
    outcome = play(["C5 C5", "HJ HJ", "DJ DJ", "C7 C8"])
    assert outcome.winner == 2 and outcome.little
    outcome = play(["C5 C5", "HJ HJ", "DA DA", "C7 C8"])
    assert outcome.winner == 1 and outcome.little


def test_littles_beat_a_single_mighty_even_when_yoromeki_is_out():
    assert winner(["C5 C5", "SA C3", "HJ HJ", "HQ C4"]) == 2


def test_rank_5_a_single_mighty_beats_seiura_and_falls_to_yoromeki_when_it_would_win():
    assert winner(["C5 C5", "DJ HJ", "SA C3", "C7 C8"]) == 2
    assert winner(["C5 C5", "DJ HJ", "SA C3", "HQ C8"]) == 3
    assert winner(["C5 C5", "SA C3", "HQ C4", "HK C6", "HA C7"]) == 4  # 返し返し


def test_rank_6_seiura_beats_the_trumps_double_ace():
    assert winner(["C5 C5", "DA DA", "DJ HJ", "C7 C8"]) == 2


def test_rank_7_and_8_the_trumps_double_ace_beats_the_led_suits():
    assert winner(["C5 C5", "CA CA", "DA DA", "C7 C8"]) == 2


def test_rank_8_a_double_ace_beats_a_single_true_jack():
    assert winner(["C5 C5", "DJ C3", "CA CA", "C7 C8"]) == 2


def test_rank_9_to_11_true_jack_false_jack_then_the_trump_double_king():
    assert winner(["C5 C5", "DK DK", "HJ C3", "C7 C8"]) == 2
    assert winner(["C5 C5", "HJ C4", "DJ C3", "C7 C8"]) == 2


def test_rank_16_a_trump_double_seven_ties_a_single_trump_ace_first_played_wins():
    assert winner(["C5 C5", "DA C3", "D7 D7", "C7 C8"]) == 1
    assert winner(["C5 C5", "D7 D7", "DA C3", "C7 C8"]) == 1


def test_rank_18_to_22_trump_queens_beat_led_face_pairs_which_beat_trumps_of_ten_or_less():
    assert winner(["C5 C5", "CK CK", "DQ C3", "C7 C8"]) == 2
    assert winner(["C5 C5", "CK CK", "D10 C3", "C7 C8"]) == 1
    assert winner(["C5 C5", "CJ CJ", "D5 D5", "C7 C8"]) == 1


def test_rank_31_a_led_ten_pair_loses_to_any_trump():
    assert winner(["C10 C10", "D2 H3", "C7 C8", "C9 C4"]) == 1


def test_led_pairs_count_their_sum():
    assert winner(["C5 C5", "C6 H3", "H7 H8"]) == 0  # 10 against a single 6
    assert winner(["C5 C5", "C7 C7", "H7 H8"]) == 1  # 14 against 10
    assert winner(["C7 C7", "CA C3", "H7 H8"]) == 0  # 14 and 14: the first played


def test_pair_same_two_needs_a_led_suit_card_from_everyone():
    assert winner(["C5 C5", "C2 C2", "CA CA", "C7 H8", "C9 H3", "CK H4"]) == 1
    assert winner(["C5 C5", "C2 C2", "CA CA", "H7 H8", "C9 H3", "CK H4"]) == 2


def test_pair_same_two_against_a_mighty_needs_two_led_suit_cards_from_everyone():
    assert winner(["C5 C5", "C2 C2", "SA C3", "C7 C8"]) == 2
    assert winner(["C5 C5", "C2 C2", "DJ DJ", "C7 C8"]) == 2  # the double jack keeps it
    assert winner(["C5 C5", "C2 C2", "C3 C4", "C7 C8"]) == 1


def test_pair_same_two_never_beats_double_mighty():
    assert winner(["C5 C5", "SA SA", "C2 C2", "C7 C8"]) == 1


def test_single_same_two_when_every_card_is_of_the_led_suit_beats_a_double_ace():
    assert winner(["C5 C5", "CA CA", "C2 C9", "C7 C8", "C3 C4", "CK CQ"]) == 2
    assert winner(["C5 C5", "CA CA", "C2 C9", "C7 C8", "C3 C4", "CK HQ"]) == 1


def test_single_same_two_gaeshi_is_the_last_players_second_two():
    assert winner(["C5 C5", "C2 C9", "C7 C8", "C3 C4", "CK CQ", "C2 C6"]) == 5
    assert winner(["C5 C5", "C2 C9", "C2 C8", "C3 C4", "CK CQ", "C10 C6"]) == 1


def test_3_3_4_black_a_spade_king_pair_beats_a_club_king_pair_and_loses_to_club_aces():
    assert winner(["H5 H5", "CK CK", "SK SK", "H7 H8"], "black") == 2
    assert winner(["H5 H5", "SK SK", "CA CA", "H7 H8"], "black") == 2


def test_first_trick_of_an_ordinary_trump_pairs_go_by_the_led_suit_only():
    assert winner(["C5 C5", "D9 D9", "C7 C7", "C3 C4"], first=True) == 2
    assert not play(["C5 C5", "DJ DJ", "C7 C7", "C3 C4"], first=True).little


@pytest.mark.parametrize("trump", ["hearts", "red", "black"])
def test_decision_a_double_joker_led_on_the_first_trick_goes_by_the_next_card(trump):
    """As a single joker led there (test_tricks): the joker is void on the first trick."""
    trick = ["JK JK", "HK HA", "H5 H6", "D9 D8", "C3 C4", "S7 S8"]
    assert winner(trick, trump, first=True) == 1
    trick = ["JK JK", "D9 D8", "HK HA", "D5 D6"]
    assert winner(trick, trump, first=True) == 1
    assert winner(trick, trump) == 0 and play(trick, trump).little


# 点札請求 --------------------------------------------------------------------------------------


def test_a_single_point_call_lead_loses_only_to_mighty():
    assert winner(["C5", "DJ", "DA", "D2"], point_call=True) == 0
    assert winner(["C5", "DJ", "SA", "D2"], point_call=True) == 2


def test_a_pair_point_call_beats_seiura_and_falls_to_mighty_and_littles():
    assert winner(["C5 C5", "DJ HJ", "DA DA", "C7 C8"], point_call=True) == 0
    assert winner(["C5 C5", "SA C3", "DA DA", "C7 C8"], point_call=True) == 1
    outcome = play(["C5 C5", "DJ DJ", "DA DA", "C7 C8"], point_call=True)
    assert outcome.winner == 1 and outcome.little  # and the taker calls next


def test_footnote_14_a_pair_of_twos_does_not_take_a_pair_point_call():
    trick = ["C5 C5", "C2 C2", "CK CQ", "CA C10"]
    assert winner(trick, point_call=True) == 0
    assert winner(trick) == 1  # without the point call the pair 2 wins


def legal_play(hand, lead, size=1, **kw):
    ctx = ctx_for(kw.pop("trump", "diamonds"), **kw)
    lead_cards = [Card(c) for c in lead.split()]
    duty = duty_for(classify_lead(lead_cards, ctx, kw.get("players", 6)), ctx)
    cards = [Card(c) for c in hand.split()]
    return lambda *codes: is_legal([Card(c) for c in codes], cards, duty)


def test_point_call_duty_point_cards_of_the_led_suit_then_any_point_card_then_anything():
    ok = legal_play("C10 C3 H4", "C5", point_call=True)
    assert ok("C10") and not ok("C3")
    ok = legal_play("HA C3", "C5", point_call=True)
    assert ok("HA") and not ok("C3")  # no club point card: another point card, not the club
    ok = legal_play("H4 C3", "C5", point_call=True)
    assert ok("H4") and ok("C3")  # no point card at all: anything
    ok = legal_play("C10 BR", "C5", point_call=True)
    assert ok("BR")  # the bridge escapes a point call
    ok = legal_play("S3 C3 JK", "S3", point_call=True)
    assert ok("S3") and ok("C3")  # a ♠3 point call does not call the joker


def test_a_joker_point_call_in_chigaku_notrump_calls_the_named_suits_point_cards():
    ok = legal_play("H10 H3 CK", "JK", trump="chigaku-notrump", named=Suit.HEARTS, point_call=True)
    assert ok("H10") and not ok("CK") and not ok("H3")


# ♠3 and the bridge ------------------------------------------------------------------------


def test_pair_spade_three_lead_one_joker_and_one_bridge():
    ok = legal_play("JK S4 BR C3", "S3 S3")
    assert ok("JK", "S4") and ok("BR", "JK")
    assert not ok("BR", "S4")  # the bridge saves the spade, not the joker
    assert not ok("S4", "C3")
    ok = legal_play("JK S4 BR BR", "S3 S3")
    assert ok("BR", "BR")  # two bridges keep the joker


def test_a_spade_three_pair_without_the_joker_is_followed_with_spades_not_bridges():
    ok = legal_play("S4 S5 BR BR", "S3 S3")
    assert ok("S4", "S5") and not ok("BR", "BR") and not ok("S4", "BR")
    ok = legal_play("S4 BR C3", "S3 S3")
    assert ok("S4", "BR") and ok("S4", "C3") and not ok("BR", "C3")


@pytest.mark.parametrize("trump", ["diamonds", "red"])
def test_3_3_4_a_spade_three_pair_is_plain_spades_on_the_first_and_last_trick(trump):
    for trick in ("first", "last"):
        ok = legal_play("JK S4 S5 C3", "S3 S3", trump=trump, **{trick: True})
        assert ok("S4", "S5") and not ok("JK", "S4") and not ok("JK", "C3")
    ok = legal_play("JK S4 S5 C3", "S3 S3", trump="notrump", first=True)
    assert ok("JK", "S4") and not ok("S4", "S5")


def test_a_pair_lead_must_be_followed_with_two_cards_of_the_suit_when_held():
    ok = legal_play("C3 C4 H5", "C9 C9")
    assert ok("C3", "C4") and not ok("C3", "H5")
    ok = legal_play("C3 H4 H5", "C9 C9")
    assert ok("C3", "H4") and not ok("H4", "H5")


def test_bridges_lead_only_the_last_trick_singly_or_as_a_pair():
    ctx = ctx_for()
    assert isinstance(classify_lead([Card("BR")], ctx, 6), str)
    assert isinstance(classify_lead([Card("BR"), Card("BR")], ctx, 6), str)
    last = ctx_for(last=True)
    assert winner(["BR BR", "SA D2", "DJ DJ"], last=True) == 0
    assert isinstance(classify_lead([Card("BR")], last, 6), Lead)


# 原爆 ---------------------------------------------------------------------------------------


BOMB = "HJ HJ DJ DJ SJ"  # trump hearts: 正 ♡J ×2, 裏 ♢J ×2, and ♠J: 5 jacks


def test_table_3_5_a_bomb_needs_five_jacks_three_of_them_true_or_false():
    ctx = ctx_for("hearts")
    assert isinstance(classify_lead([Card(c) for c in BOMB.split()], ctx, 6), Lead)
    assert isinstance(classify_lead([Card(c) for c in "HJ HJ DJ DJ".split()], ctx, 6), str)
    assert isinstance(classify_lead([Card(c) for c in "HJ DJ SJ SJ CJ".split()], ctx, 6), str)
    assert isinstance(classify_lead([Card(c) for c in BOMB.split()], ctx, 4), str)  # 4 players: 6


def test_a_notrump_bomb_names_a_suit_whose_jacks_make_three():
    jacks = [Card(c) for c in "SJ SJ CJ HJ DJ".split()]
    assert isinstance(classify_lead(jacks, ctx_for("notrump", named=Suit.SPADES), 6), Lead)
    assert isinstance(classify_lead(jacks, ctx_for("notrump", named=Suit.HEARTS), 6), str)
    assert isinstance(classify_lead(jacks, ctx_for("notrump"), 6), str)


def test_no_bomb_on_the_first_trick_of_an_ordinary_trump():
    assert isinstance(
        classify_lead([Card(c) for c in BOMB.split()], ctx_for("hearts", first=True), 6), str
    )


def test_a_bomb_wins_unless_answered_with_as_many_twos():
    others = ["SA H3 H4 H5 H6", "C2 D2 S2 H2 C2", "HA HK HQ H10 H9"]
    assert winner([BOMB, "SA H3 H4 H5 H6", "HA HK HQ H10 H9"], "hearts", players=6) == 0
    assert winner([BOMB, *others], "hearts", players=6) == 2


def test_bomb_duty_mighty_then_trumps_then_point_cards_and_the_bridge_not_for_mighty():
    ok = legal_play("SA H3 H4 C10 C5 C6 BR", BOMB, trump="hearts")
    assert ok("SA", "H3", "H4", "C10", "C5")
    assert not ok("H3", "H4", "C10", "C5", "C6")  # mighty withheld
    assert not ok("SA", "H3", "C10", "C5", "C6")  # a trump withheld
    assert ok("SA", "H3", "H4", "BR", "C10")  # the bridge for a point card
    assert not ok("BR", "H3", "H4", "C10", "C5")
    ok = legal_play("C2 D2 S2 H2 C2 SA", BOMB, trump="hearts")
    assert ok("C2", "D2", "S2", "H2", "C2")  # 原爆返し: the mighty need not come


@pytest.mark.parametrize("trump", ["hearts", "black", "notrump"])
def test_double_jokers_call_the_trump_twice(trump):
    named = Suit.HEARTS if trump == "notrump" else None
    ok = legal_play("H3 H4 C10 S5", "JK JK", trump=trump, named=named)
    if trump == "black":
        assert ok("C10", "S5") and not ok("H3", "H4")
    else:
        assert ok("H3", "H4") and not ok("H3", "C10")
