"""The envelope every record shares (docs/deal-records.md, "Envelope")."""

import pytest

import engine
from engine.cards import InvalidCard, parse_card

NAPOLEON = {
    "game": "napoleon",
    "players": ["A", "B", "C", "D"],
    "declaration": {"player": "A", "count": 15, "trump": "hearts"},
    "adjutant_cards": ["SA"],
    "adjutants": ["C"],
    "point_cards": {"A": 9, "B": 3, "C": 7, "D": 1},
}


def codes(result):
    return [(e.code, e.path) for e in result.errors]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("SA", "SA"),
        ("h10", "H10"),
        ("♠A", "SA"),
        ("♡q", "HQ"),
        ("♢2", "D2"),
        ("♣k", "CK"),
        ("jk", "JK"),
        ("BR", "BR"),
    ],
)
def test_card_codes_are_read_in_every_documented_spelling(text, code):
    assert parse_card(text).code == code
    assert parse_card(parse_card(text).code).code == code


@pytest.mark.parametrize("text", ["S1", "X5", "H11", "", "10H", 7, None])
def test_a_card_that_is_not_a_card_is_refused(text):
    with pytest.raises(InvalidCard):
        parse_card(text)


@pytest.mark.parametrize(
    "record", [[], "napoleon", 3, {"players": ["A"]}, {"game": "chess"}, {"game": 5}]
)
def test_anything_that_is_not_a_record_raises_not_a_record(record):
    with pytest.raises(engine.NotARecord):
        engine.check(record)


def test_a_valid_record_has_no_errors_and_zero_sum_scores():
    result = engine.check(NAPOLEON)
    assert result.valid, result.errors
    assert sum(result.scores.values()) == 0
    assert result.to_dict()["valid"] is True


def test_unknown_keys_are_errors_at_every_level():
    record = {**NAPOLEON, "colour": "red", "declaration": {**NAPOLEON["declaration"], "bid": 1}}
    assert set(codes(engine.check(record))) >= {
        ("unknown_key", "colour"),
        ("unknown_key", "declaration.bid"),
    }


def test_an_unknown_rules_variant_is_an_error_not_ignored():
    result = engine.check({**NAPOLEON, "rules": {"double-mighty": True}})
    assert ("unknown_key", "rules.double-mighty") in codes(result)


def test_players_must_be_distinct_strings_in_the_games_range():
    assert ("duplicate_player", "players[3]") in codes(
        engine.check({**NAPOLEON, "players": ["A", "B", "C", "A"]})
    )
    assert ("player_count", "players") in codes(
        engine.check({**NAPOLEON, "players": ["A", "B", "C", "D", "E", "F", "G"]})
    )
    assert ("wrong_type", "players[1]") in codes(
        engine.check({**NAPOLEON, "players": ["A", 2, "C", "D"]})
    )


def test_every_problem_is_reported_not_only_the_first():
    record = {
        **NAPOLEON,
        "adjutant_cards": ["S1"],
        "adjutants": ["Z"],
        "point_cards": {"A": 9, "B": "3", "C": 7, "D": 1},
    }
    found = codes(engine.check(record))
    assert ("invalid_card", "adjutant_cards[0]") in found
    assert ("unknown_player", "adjutants[0]") in found
    assert ("wrong_type", "point_cards.B") in found


def test_a_card_used_more_often_than_the_deck_holds_is_an_error():
    record = {
        "game": "comp13",
        "players": ["P1", "P2"],
        "captured": {"P1": ["SK", "SK"], "P2": ["JK"]},
        "hand_faces": {"P1": [], "P2": []},
    }
    found = codes(engine.check(record))
    assert ("too_many_copies", "captured.P1[1]") in found
    assert ("too_many_copies", "captured.P2[0]") in found  # no joker unless rules.jokers


def test_a_booleans_is_not_a_number():
    result = engine.check({**NAPOLEON, "point_cards": {"A": True, "B": 3, "C": 7, "D": 1}})
    assert ("wrong_type", "point_cards.A") in codes(result)
