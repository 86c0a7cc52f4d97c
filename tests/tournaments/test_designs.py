"""The library of known designs (issue 57): every schedule seats everyone each round at
tables of its size, no pair meets twice, and every player's seats stay within
⌊t/k⌋…⌈t/k⌉ after every prefix of t rounds, before and after relabelling. Pure: no
database."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

import pytest

from tournaments import designs
from tournaments.designs import constructions, data, seats

ROOT = Path(__file__).resolve().parents[2]


def build_script():
    spec = importlib.util.spec_from_file_location(
        "build_designs", ROOT / "scripts" / "build_designs.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_designs"] = module
    spec.loader.exec_module(module)
    return module


def assert_schedule(rounds: Sequence[Sequence[Sequence[int]]], ids: Sequence[int], size: int):
    """Each round seats every id once at tables of ``size``, no pair twice, seats balanced
    after every prefix."""
    met: Counter[frozenset[int]] = Counter()
    seat_counts: dict[int, Counter[int]] = {p: Counter() for p in ids}
    for t, tables in enumerate(rounds, 1):
        assert sorted(p for table in tables for p in table) == sorted(ids)
        assert {len(table) for table in tables} == {size}
        for table in tables:
            met.update(frozenset(pair) for pair in combinations(table, 2))
            for seat, player in enumerate(table):
                seat_counts[player][seat] += 1
        low, high = t // size, -(-t // size)
        for player, counts in seat_counts.items():
            for seat in range(size):
                assert low <= counts[seat] <= high, (t, player, seat, counts)
    assert not met or max(met.values()) == 1


KNOWN = designs.known()


@pytest.mark.parametrize(("players", "size", "rounds"), KNOWN)
def test_every_known_design_is_a_balanced_schedule(players, size, rounds):
    design = designs.schedule(players, size, rounds)
    assert design is not None and len(design.rounds) == rounds
    assert (design.players, design.size) == (players, size)
    assert_schedule(design.rounds, range(players), size)
    assert designs.most_rounds(players, size) == rounds
    assert designs.schedule(players, size, rounds + 1) is None


@pytest.mark.parametrize(("players", "size", "rounds"), KNOWN)
def test_relabelled_the_design_keeps_its_properties_on_the_given_ids(players, size, rounds):
    design = designs.schedule(players, size, rounds)
    assert design is not None
    ids = random.Random(players).sample(range(1000, 9000), players)
    for seed in range(3):
        relabelled = designs.relabel(design, ids, random.Random(seed))
        assert_schedule(relabelled, ids, size)
    assert designs.relabel(design, ids, random.Random(7)) == designs.relabel(
        design, ids, random.Random(7)
    )
    assert designs.relabel(design, ids, random.Random(7)) != designs.relabel(
        design, ids, random.Random(8)
    )


def test_relabel_refuses_ids_that_do_not_fit():
    design = designs.schedule(9, 3, 4)
    assert design is not None
    with pytest.raises(ValueError):
        designs.relabel(design, range(8), random.Random(0))
    with pytest.raises(ValueError):
        designs.relabel(design, [1, 2, 3, 4, 5, 6, 7, 8, 8], random.Random(0))


@pytest.mark.parametrize(
    ("players", "size", "rounds"),
    [
        (9, 3, 4),
        (15, 3, 7),
        (16, 4, 5),
        (20, 4, 5),
        (24, 4, 7),
        (28, 4, 9),
        (25, 5, 6),
        (36, 6, 3),
        (49, 7, 8),
        (64, 8, 9),
    ],
)
def test_the_issues_targets_are_in_the_library(players, size, rounds):
    assert designs.most_rounds(players, size) >= rounds
    design = designs.schedule(players, size, rounds)
    assert design is not None and len(design.rounds) == rounds


@pytest.mark.parametrize(
    ("players", "size", "rounds"),
    [
        (16, 4, 6),  # more rounds than (n − 1)/(k − 1): someone would meet a player twice
        (36, 6, 4),  # two orthogonal Latin squares of order 6 do not exist
        (12, 4, 2),  # three tables of four: round 2 must put two of a table together
        (10, 3, 2),  # not a whole number of tables
        (9, 3, 0),
        (9, 3, -1),
        (0, 3, 1),
    ],
)
def test_impossible_or_unknown_nights_get_no_design(players, size, rounds):
    assert designs.schedule(players, size, rounds) is None


def test_fewer_rounds_are_the_designs_first_rounds_and_stay_balanced():
    whole = designs.schedule(28, 4, 9)
    assert whole is not None
    for rounds in range(1, 9):
        part = designs.schedule(28, 4, rounds)
        assert part is not None and part.rounds == whole.rounds[:rounds]
        assert part.name == whole.name


def test_names_say_where_a_design_comes_from():
    assert designs.schedule(16, 4, 5).name == "affine plane AG(2,4)"  # type: ignore[union-attr]
    assert designs.schedule(36, 6, 3).name == "Latin square 6×6"  # type: ignore[union-attr]
    assert "solver" in designs.schedule(28, 4, 9).name  # type: ignore[union-attr]
    assert designs.most_rounds(13, 4) == 0


@pytest.mark.parametrize("q", [4, 8])
def test_the_small_fields_are_fields(q):
    add, mul = constructions.field(q)
    for a in range(1, q):
        assert sorted(mul[a]) == list(range(q))  # no zero divisor: every a has an inverse
    for a, b, c in combinations(range(q), 3):
        assert mul[a][add[b][c]] == add[mul[a][b]][mul[a][c]]
        assert mul[a][mul[b][c]] == mul[mul[a][b]][c]


def test_seat_order_is_deterministic_and_keeps_the_tables():
    plain = constructions.affine_plane(5)
    once, again = seats.seat_order(plain, 5), seats.seat_order(plain, 5)
    assert once == again
    assert [sorted(map(sorted, r)) for r in once] == [sorted(map(sorted, r)) for r in plain]


def test_the_shipped_data_is_what_the_build_script_writes():
    text = data.SOLVED.read_text(encoding="utf-8")
    entries = json.loads(text)
    assert build_script().dump(entries) == text
    for name, size, rounds in data.solved():
        assert name and rounds and size >= 3


def test_bad_data_is_refused(tmp_path):
    bad = tmp_path / "solved.json"
    twice = [[[0, 1, 2], [3, 4, 5], [6, 7, 8]], [[0, 1, 3], [2, 4, 6], [5, 7, 8]]]
    bad.write_text(json.dumps([{"name": "x", "players": 9, "size": 3, "rounds": twice}]))
    with pytest.raises(ValueError, match="twice"):
        data.solved(bad)
    short = [[[0, 1, 2], [3, 4, 5], [6, 7]]]
    bad.write_text(json.dumps([{"name": "x", "players": 9, "size": 3, "rounds": short}]))
    with pytest.raises(ValueError, match="every player"):
        data.solved(bad)


def test_the_build_scripts_searches_find_small_designs(tmp_path):
    script = build_script()
    found = script.golfers(9, 3, 4, 1, 5.0)
    assert found is not None
    data.check(9, 3, found)
    kts = script.cyclic(15, 3, 7, 1, 5.0)
    assert kts is not None
    data.check(15, 3, kts)
    output = tmp_path / "solved.json"
    assert script.main(["--only", "9x3x4,12x3x4", "--seconds", "5", "--output", str(output)]) == 0
    written = data.solved(output)
    assert sorted((len(r[0]) * size, size, len(r)) for _, size, r in written) == [
        (9, 3, 4),
        (12, 3, 4),
    ]
