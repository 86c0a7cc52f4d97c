"""Trick winners and legal plays, each rule by a hand-built trick (sections of the rulebook)."""

import pytest

from engine.cards import Card, Suit
from engine.games.follow import is_legal
from engine.games.leads import classify_lead, duty_for
from engine.games.tricks import TrickContext, Trump, trick_winner


def win(codes, trump, *, first=False, last=False, rettler=False, named=None):
    ctx = TrickContext(Trump(trump), first=first, last=last, rettler=rettler, named=named)
    return trick_winner([Card(c) for c in codes], ctx)


def legal(hand, lead, trump="hearts", **kw):
    """The cards of ``hand`` that may be played to ``lead`` (``None``: that may be led)."""
    ctx = TrickContext(
        Trump(trump),
        first=kw.get("first", False),
        last=kw.get("last", False),
        rettler=kw.get("rettler", False),
        named=kw.get("named"),
    )
    cards = [Card(c) for c in hand]
    if lead is None:
        return sorted(c.code for c in cards if not isinstance(classify_lead([c], ctx, 6), str))
    duty = duty_for(classify_lead([Card(lead)], ctx, 6), ctx)
    return sorted(c.code for c in cards if is_legal([c], cards, duty))


# 2.3.4 一般論 ----------------------------------------------------------------------------------


def test_2_3_4_the_highest_card_of_the_led_suit_wins_and_other_suits_never_do():
    assert win(["D5", "DK", "HA", "D9"], "clubs") == 1


def test_2_3_4_mighty_beats_everything_even_the_trump_jack():
    assert win(["H5", "SA", "HJ", "HA"], "hearts") == 1


def test_2_3_4_yoromeki_takes_mighty_whoever_played_first():
    assert win(["SA", "HQ", "D3", "D4"], "diamonds") == 1
    assert win(["HQ", "C2", "SA", "C4"], "clubs") == 0


def test_2_3_4_yoromeki_gaeshi_takes_both():
    assert win(["SA", "HQ", "HK", "D4"], "diamonds") == 2


def test_2_3_4_without_mighty_the_heart_queen_is_an_ordinary_card():
    assert win(["HQ", "HK", "H3", "H4"], "spades") == 1


def test_3_3_3_rettler_yoromeki_gaeshi_gaeshi_takes_all_three():
    assert win(["SA", "HQ", "HK", "HA", "C2", "C3"], "clubs", rettler=True) == 3
    # Napoleon has no 返し返し: the ♡K keeps the trick.
    assert win(["SA", "HQ", "HK", "HA"], "clubs") == 2


def test_2_3_4_a_led_joker_loses_only_to_mighty():
    assert win(["JK", "HJ", "HA", "C4"], "hearts") == 0
    assert win(["JK", "H3", "SA", "C4"], "hearts") == 2


def test_2_3_4_a_joker_not_led_does_nothing():
    assert win(["D3", "JK", "D4", "D2"], "hearts") == 2


def test_2_3_4_the_true_jack_beats_the_false_jack_which_beats_the_trump_ace():
    assert win(["S5", "SK", "CJ", "S7"], "spades") == 2  # 裏ジャック ♣J over trump ♠K
    assert win(["S5", "CJ", "SJ", "S7"], "spades") == 2  # 正ジャック over 裏ジャック
    assert win(["D5", "HJ", "DA", "D7"], "diamonds") == 1  # ♡J is diamonds' 裏ジャック


def test_2_3_4_a_trump_two_beats_the_led_suits_ace():
    assert win(["DA", "H2", "DK", "D7"], "hearts") == 1


def test_2_3_4_same_two_wins_when_every_card_is_of_the_led_suit():
    assert win(["D5", "DA", "D2", "DK"], "clubs") == 2
    assert win(["C5", "CA", "C2", "CK"], "clubs") == 2  # the trump 2 too


def test_2_3_4_same_two_needs_every_card_in_the_led_suit():
    assert win(["D5", "DA", "D2", "H3"], "clubs") == 1


def test_2_3_4_same_two_beats_the_jacks_but_not_mighty():
    # Table 2.2: セイム 2 is effective from 正ジャック down; appendix A's local rules list
    # "セイム 2 does not work on the jacks" and "セイム 2 works on mighty" as departures.
    assert win(["S5", "SJ", "S2", "SK"], "spades") == 2
    assert win(["C5", "CJ", "C2", "CK"], "spades") == 2  # 裏ジャック ♣J
    assert win(["S5", "SA", "S2", "SK"], "hearts") == 1


def test_2_3_4_same_two_is_void_on_a_spade_three_lead():
    assert win(["S3", "S2", "S5", "SK"], "hearts") == 3


def test_2_3_4_first_trick_of_an_ordinary_trump_knows_only_mighty():
    assert win(["D5", "H2", "DK", "D3"], "hearts", first=True) == 2  # trump void
    assert win(["D5", "HJ", "DK", "D3"], "hearts", first=True) == 2  # jack void
    assert win(["D5", "D2", "DK", "D3"], "hearts", first=True) == 2  # same 2 void
    assert win(["D5", "SA", "DK", "HQ"], "hearts", first=True) == 3  # yoromeki still works


def test_2_3_4_last_trick_of_an_ordinary_trump_the_joker_counts_but_trumps_do_not():
    assert win(["JK", "D5", "HA", "D3"], "hearts", last=True) == 0
    assert win(["D5", "HJ", "DK", "D3"], "hearts", last=True) == 2


def test_decision_a_joker_led_on_the_first_trick_is_won_as_if_led_by_the_next_card():
    assert win(["JK", "D5", "DK", "D3"], "hearts", first=True) == 2


# 2.3.4 赤、黒 ---------------------------------------------------------------------------------


def test_2_3_4_red_and_black_equal_trumps_go_to_the_led_trump_suit():
    assert win(["C5", "SK", "CK", "H3"], "black") == 2


def test_2_3_4_red_and_black_equal_trumps_off_a_plain_lead_go_to_the_first_played():
    assert win(["H5", "SK", "CK", "H3"], "black") == 1


def test_3_3_4_black_spade_king_loses_to_club_ace_whatever_the_order():
    assert win(["S5", "SK", "CA", "S3"], "black") == 2


def test_2_3_4_red_and_black_both_jacks_are_jacks():
    assert win(["C5", "SJ", "CJ", "CA"], "black") == 2
    assert win(["D5", "HJ", "DA", "DK"], "red") == 1


# ノートラ系 ----------------------------------------------------------------------------------


def test_2_3_4_notrump_the_led_suit_is_trump_with_its_jacks_from_the_first_trick():
    assert win(["H5", "HK", "HJ", "HA"], "notrump", first=True) == 2
    assert win(["H5", "HK", "DJ", "HA"], "notrump", first=True) == 2  # 裏ジャック
    assert win(["H5", "H2", "H9", "HA"], "notrump", first=True) == 1  # same 2 on the first trick


def test_2_3_4_notrump_joker_lead_names_the_suit():
    assert win(["JK", "HK", "DJ", "HA"], "notrump", named=Suit.HEARTS) == 0


def test_2_3_4_igo_notrump_fours_instead_of_jacks():
    assert win(["H5", "HK", "H4", "HJ"], "igo-notrump") == 2
    assert win(["H5", "HK", "D4", "HJ"], "igo-notrump") == 2
    assert win(["H5", "HQ", "HJ", "H6"], "igo-notrump") == 1


def test_2_3_4_chigaku_notrump_has_no_jacks():
    assert win(["H5", "HJ", "HK", "DJ"], "chigaku-notrump") == 2


# 3.3.3 レットラー: two decks ------------------------------------------------------------------


def test_3_3_3_of_two_equal_cards_the_first_played_wins():
    assert win(["D5", "DK", "DK", "D7", "H3", "H4"], "clubs", rettler=True) == 1
    assert win(["D5", "C9", "DK", "C9", "H3", "H4"], "clubs", rettler=True) == 1


def test_3_3_3_same_two_gaeshi_the_last_player_with_the_second_two_wins():
    assert win(["D5", "D2", "D9", "D2"], "clubs", rettler=True) == 3
    assert win(["D5", "D2", "D2", "D9"], "clubs", rettler=True) == 1


# Legal plays -------------------------------------------------------------------------------


def test_2_3_4_a_player_must_follow_the_led_suit():
    assert legal(["D3", "H4", "CA"], "D9") == ["D3"]
    assert legal(["H4", "CA", "JK"], "D9") == ["CA", "H4", "JK"]


def test_2_3_4_spade_three_makes_the_jokers_holder_give_it_up():
    assert legal(["S4", "JK", "CA"], "S3") == ["JK"]
    assert legal(["S4", "JK", "BR"], "S3", rettler=True) == ["BR", "JK"]


@pytest.mark.parametrize("trump", ["hearts", "red", "black"])
@pytest.mark.parametrize("trick", ["first", "last"])
def test_2_3_4_spade_three_is_a_plain_spade_on_the_first_and_last_trick(trump, trick):
    assert legal(["S4", "JK", "CA"], "S3", trump=trump, **{trick: True}) == ["S4"]
    assert legal(["JK", "CA"], "S3", trump=trump, **{trick: True}) == ["CA", "JK"]


@pytest.mark.parametrize("trump", ["notrump", "igo-notrump", "chigaku-notrump"])
def test_2_3_4_spade_three_calls_the_joker_on_the_first_trick_of_no_trump(trump):
    assert legal(["S4", "JK", "CA"], "S3", trump=trump, first=True) == ["JK"]


def test_2_3_4_a_joker_lead_calls_the_trump_then_a_point_card():
    assert legal(["H4", "D10", "C3"], "JK", trump="hearts") == ["H4"]
    assert legal(["D10", "SA", "C3"], "JK", trump="hearts") == ["D10", "SA"]
    assert legal(["D9", "C3"], "JK", trump="hearts") == ["C3", "D9"]
    assert legal(["S4", "C9", "H3"], "JK", trump="black") == ["C9", "S4"]
    assert legal(["S4", "D9", "H3"], "JK", trump="notrump", named=Suit.DIAMONDS) == ["D9"]


def test_2_3_4_chigaku_notrump_a_joker_lead_calls_the_named_suit_then_a_point_card():
    hearts = {"trump": "chigaku-notrump", "named": Suit.HEARTS}
    assert legal(["H5", "HJ", "CK"], "JK", **hearts) == ["H5", "HJ"]
    assert legal(["D5", "CK", "S3"], "JK", **hearts) == ["CK"]
    assert legal(["D5", "S3"], "JK", **hearts) == ["D5", "S3"]


def test_3_3_3_on_a_spade_three_lead_the_bridge_stands_in_only_for_a_held_joker():
    assert legal(["S5", "SQ", "BR"], "S3", rettler=True) == ["S5", "SQ"]
    assert legal(["C5", "BR"], "S3", rettler=True) == ["BR", "C5"]  # void in spades


def test_3_3_3_the_bridge_stands_in_for_a_called_card_and_leads_only_the_last_trick():
    assert legal(["H4", "BR"], "JK", trump="hearts", rettler=True) == ["BR", "H4"]
    assert legal(["H4", "BR"], None, rettler=True) == ["H4"]
    assert legal(["H4", "BR"], None, rettler=True, last=True) == ["BR", "H4"]


@pytest.mark.parametrize("trump", ["hearts", "black", "notrump"])
def test_a_hand_void_in_the_led_suit_may_play_anything(trump):
    assert legal(["C4", "H2"], "D9", trump=trump) == ["C4", "H2"]


def test_trick_keys_keep_the_steps_apart():
    """trick_winner ranks by step * STEP + 2 * strength + preference: no strength may cross a step."""
    from engine.cards import BY_CODE
    from engine.games.tricks import STEP

    assert 2 * max(card.strength for card in BY_CODE.values()) + 1 < STEP
