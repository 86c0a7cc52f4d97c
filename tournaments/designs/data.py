"""The schedules a solver found offline (``scripts/build_designs.py``), shipped as
``solved.json``: a list of ``{"name", "players", "size", "rounds"}``, one a line, each
round a list of tables of player numbers 0…players−1."""

from __future__ import annotations

import json
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

SOLVED = Path(__file__).with_name("solved.json")

Rounds = list[list[list[int]]]


def check(players: int, size: int, rounds: Sequence[Sequence[Sequence[int]]]) -> None:
    """Raise ValueError unless every round seats each of 0…players−1 once at tables of
    ``size`` and no two players share a table twice."""
    if size < 2 or players % size:
        raise ValueError(f"{players} players do not fill tables of {size}")
    met: set[tuple[int, int]] = set()
    for number, tables in enumerate(rounds, 1):
        seated = sorted(p for table in tables for p in table)
        if seated != list(range(players)):
            raise ValueError(f"round {number} does not seat every player once")
        for table in tables:
            if len(table) != size:
                raise ValueError(f"round {number} has a table of {len(table)}")
            for pair in combinations(sorted(table), 2):
                if pair in met:
                    raise ValueError(f"players {pair} meet twice (round {number})")
                met.add(pair)


def solved(path: Path = SOLVED) -> list[tuple[str, int, Rounds]]:
    """The file's designs, each checked: (name, table size, rounds)."""
    designs = []
    for entry in json.loads(path.read_text(encoding="utf-8")):
        name, players, size = str(entry["name"]), int(entry["players"]), int(entry["size"])
        rounds = [[[int(p) for p in table] for table in tables] for tables in entry["rounds"]]
        try:
            check(players, size, rounds)
        except ValueError as error:
            raise ValueError(f"{path.name}: {name}: {error}") from error
        designs.append((name, size, rounds))
    return designs
