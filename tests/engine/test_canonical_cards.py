"""Cards written with suit symbols or in lower case are read as their codes, and
``engine.canonical`` gives the record back with the codes (docs/deal-records.md: "output
always uses the canonical form"), in every game's summary and full-play records."""

import json
from pathlib import Path

import pytest

import engine
from engine.cards import InvalidCard, parse_card

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "docs" / "examples").glob("*.json"))
SYMBOLS = {"S": "♠", "H": "♡", "D": "♢", "C": "♣"}


def written_otherwise(value, players, n=[0]):  # noqa: B006 - a counter across calls
    """Every card code of ``value`` written another way, in turn: ♠A, sa, ♥10, s10 …"""
    if isinstance(value, dict):
        return {k: written_otherwise(v, players) for k, v in value.items()}
    if isinstance(value, list):
        return [written_otherwise(v, players) for v in value]
    if not isinstance(value, str) or value in players:
        return value
    try:
        card = parse_card(value)
    except InvalidCard:
        return value
    if card.suit is None or card.code != value:
        return value
    n[0] += 1
    return (SYMBOLS[card.code[0]] + card.code[1:]) if n[0] % 2 else card.code.lower()


@pytest.mark.parametrize(
    "path", [p for p in EXAMPLES if "-match" not in p.name], ids=lambda p: p.stem
)
def test_cards_written_with_symbols_score_alike_and_come_back_as_codes(path):
    record = json.loads(path.read_text(encoding="utf-8"))
    typed = written_otherwise(record, set(record.get("players", [])))
    assert typed != record or "summary" in path.name  # the full plays all hold cards
    plain, symbols = engine.check(record), engine.check(typed)
    assert plain.valid and symbols.valid, symbols.errors
    assert symbols.scores == plain.scores and symbols.details == plain.details
    assert plain.rewritten == ()
    assert engine.canonical(record, plain) is record
    assert engine.canonical(typed, symbols) == record


def test_a_key_with_dots_and_brackets_is_rewritten_at_its_own_path():
    record = {
        "game": "comp13",
        "players": ["a.b", "c[0]", "P3", "P4"],
        "captured": {"a.b": ["♠K", "hk"], "c[0]": ["♢A"], "P3": [], "P4": []},
        "hand_faces": {"a.b": [], "c[0]": [], "P3": [], "P4": []},
    }
    result = engine.check(record)
    assert result.valid, result.errors
    assert engine.canonical(record, result)["captured"] == {
        "a.b": ["SK", "HK"],
        "c[0]": ["DA"],
        "P3": [],
        "P4": [],
    }
