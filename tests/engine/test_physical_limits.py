"""What a summary can never say (docs/deal-records.md, issue 18): one case per limit,
each a legal summary changed in one place, refused with its code at its path; and
every summary the engine makes of a random legal game passes the summary check.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.deal import play_match

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def example(name: str) -> dict[str, Any]:
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def comrade(players: int, bids: dict[str, dict[str, int]]) -> dict[str, Any]:
    names = ["A", "B", "C", "D", "E"][:players]
    return {"game": "comrade", "players": names, "dealer": "A", "bids": bids, "tricks_won": {}}


def changed(name: str, path: list[Any], value: Any) -> dict[str, Any]:
    """The documented example ``name`` with the value at ``path`` replaced."""
    record = copy.deepcopy(example(name))
    target = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return record


CASES = {
    # Napoleon and Rettler
    "declaration below the table": (changed("napoleon-summary", ["declaration", "count"], 11), "count_out_of_range", "declaration.count"),
    "more adjutants than allowed": (changed("napoleon-summary", ["adjutants"], ["B", "C"]), "too_many_adjutants", "adjutants"),
    "the declarer as adjutant": (changed("napoleon-summary", ["adjutants"], ["A"]), "declarer_as_adjutant", "adjutants[0]"),
    "an adjutant with no card named": (changed("napoleon-summary", ["adjutant_cards"], []), "adjutant_without_card", "adjutants"),
    "named cards no hand can hold back": (  # 14 cards, 12 in a hand: two could be adjutants
        changed("napoleon-summary", ["adjutant_cards"], [f"S{r}" for r in "A K Q J 10 9 8 7 6 5 4 3 2".split()] + ["HA"]),
        "too_many_adjutant_cards", "adjutant_cards"),
    "more adjutants than copies of the named card": (
        {"game": "napoleon", "players": ["A", "B", "C", "D", "E", "F"],
         "declaration": {"player": "A", "count": 14, "trump": "spades"},
         "adjutant_cards": ["SA"], "adjutants": ["B", "C"],
         "point_cards": {"A": 8, "B": 4, "C": 4, "D": 2, "E": 1, "F": 1}},
        "too_many_adjutants", "adjutants"),
    "more discarded point cards than the widow": (
        changed("napoleon-summary", ["discarded_point_cards"], 6), "out_of_range", "discarded_point_cards"),
    "point cards that do not add up": (changed("napoleon-summary", ["point_cards", "D"], 2), "point_cards_total", "point_cards"),
    # Comp-13
    "a number card captured": (changed("comp13-summary", ["captured", "P4", 1], "S9"), "not_a_face_card", "captured.P4[1]"),
    "a face card twice": (changed("comp13-summary", ["captured", "P4", 1], "SA"), "too_many_copies", "captured.P4[1]"),
    "a joker the rules do not deal": (changed("comp13-summary", ["rules", "jokers"], 0), "too_many_copies", "captured.P2[2]"),
    # Packing
    "a pack of one card": (changed("packing-summary", ["packs", "W"], [["D5"]]), "short_pack", "packs.W[0]"),
    "a pack of two suits": (changed("packing-summary", ["packs", "W"], [["D5", "C5"]]), "mixed_suits", "packs.W[0]"),
    "teams that are not the alternate seats": (changed("packing-summary", ["teams"], [["N", "E"], ["S", "W"]]), "wrong_teams", "teams"),
    # Twenty-Two
    "a card twice in one deck": (
        {"game": "twentytwo", "players": ["A", "B", "C"], "dealer": "A",
         "last_trick": {"A": "SK", "B": "SK", "C": "H2"}}, "too_many_copies", "last_trick.B"),
    "hands the deck cannot deal": (
        {"game": "twentytwo", "players": list("ABCDEFGH"), "dealer": "A", "hand_size": 7, "decks": 1,
         "last_trick": dict(zip("ABCDEFGH", ["H2", "H3", "H4", "H5", "H6", "H7", "H8", "H9"], strict=False))},
        "out_of_range", "hand_size"),
    "buying back outside the gambling game": (
        {"game": "twentytwo", "players": ["A", "B", "C", "D"], "dealer": "A", "buy_back": ["A"],
         "last_trick": {"A": "SK", "B": "H2", "C": "D3", "D": "C4"}}, "not_applicable", "buy_back"),
    # 1234
    "six cards left in a hand": (changed("1234-summary", ["hands_left", "Aki"], ["S4", "C8", "H3", "D9", "C10", "H7"]), "wrong_card_count", "hands_left.Aki"),
    "the winner dropped out": (changed("1234-summary", ["winner"], "Aki"), "wrong_winner", "winner"),
    "a drop-out holding an ace": (changed("1234-summary", ["hands_left", "Aki"], ["S4", "C8", "HA"]), "could_play", "hands_left.Aki"),
    "a drop-out holding three of a suit": (changed("1234-summary", ["hands_left", "Chie"], ["S6", "S7", "S9", "C4"]), "could_play", "hands_left.Chie"),
    # Bhabhi
    "the bhabhi went out": (changed("bhabhi-summary", ["out"], ["Dan", "Aki", "Chie"]), "wrong_bhabhi", "out[2]"),
    "a player never went out": (changed("bhabhi-summary", ["out"], ["Dan", "Aki"]), "missing_player", "out"),
    # Comrade
    "3 players: a bid above 4": (comrade(3, {"A": {"spades": 5}}), "bid_out_of_range", "bids.A.spades"),
    "4 players: a bid above 6": (comrade(4, {"A": {"spades": 7}}), "bid_out_of_range", "bids.A.spades"),
    "5 players: a bid above 6": (comrade(5, {"A": {"spades": 7}}), "bid_out_of_range", "bids.A.spades"),
    "3 players: two players bid 4 spades": (comrade(3, {"A": {"spades": 4}, "B": {"spades": 4}}), "bid_card_taken", "bids.A.spades"),
    "4 players: two players bid 2 hearts": (comrade(4, {"A": {"hearts": 2}, "C": {"hearts": 2}}), "bid_card_taken", "bids.A.hearts"),
    "5 players: three 4s in a suit need three jokers": (comrade(5, {"A": {"spades": 4}, "B": {"spades": 4}, "C": {"spades": 4}}), "bid_card_taken", "bids.A.spades"),
    "5 players: two 6s need four jokers": (comrade(5, {"A": {"spades": 6}, "B": {"hearts": 6}}), "bid_card_taken", "bids"),
    "bids in four suits": (comrade(4, {"A": {"spades": 1, "hearts": 1, "clubs": 1, "diamonds": 1}}), "too_many_bids", "bids.A"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_summary_no_legal_deal_gives_is_refused(case):
    record, code, path = CASES[case]
    result = engine.check(record)
    assert (code, path) in [(e.code, e.path) for e in result.errors], [
        e.to_dict() for e in result.errors
    ]
    assert not result.scores


@pytest.mark.parametrize(
    ("players", "bids"),
    [
        (3, {"A": {"spades": 4, "clubs": 1}, "B": {"hearts": 4}, "C": {"diamonds": 3}}),
        (4, {"A": {"spades": 6}, "B": {"spades": 5}, "C": {"hearts": 2}}),
        # 5 players: ♠4, ♠3 + joker, and ♠1 opened by the other joker: 4, 4 and 2.
        (5, {"A": {"spades": 4}, "B": {"spades": 4}, "C": {"spades": 2}}),
        (5, {"A": {"spades": 6}, "B": {"hearts": 4}}),
    ],
)
def test_bids_the_cards_can_make_are_accepted(players, bids):
    codes = {e.code for e in engine.check(comrade(players, bids)).errors}
    assert not codes & {"bid_out_of_range", "bid_card_taken", "too_many_bids"}, codes


def test_the_documented_summaries_are_legal():
    for name in ("napoleon", "rettler", "comp13", "packing", "1234", "bhabhi", "comrade"):
        assert engine.check(example(f"{name}-summary")).valid, name


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**9), game=st.sampled_from(sorted(engine.GAMES)))
def test_every_summary_of_a_random_legal_game_passes_the_summary_check(seed, game):
    rules = engine.GAMES[game]
    rng = random.Random(seed)
    n = rng.choice(sorted(rules.player_counts - {2}) or sorted(rules.player_counts))
    players = [f"P{i}" for i in range(n)]
    for deal in play_match(rules, rng, players, most=3):
        played = engine.check(deal)
        summary = engine.summarize(deal)
        again = engine.check(summary)
        assert again.valid, (game, [e.to_dict() for e in again.errors], summary)
        assert again.scores == played.scores
