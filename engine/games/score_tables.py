"""Appendix C's zero-sum score tables (Napoleon C.1-C.3, Rettler C.4-C.6, table 3.3).

The CSV files in ``engine/data`` are copies of ``shared/reference`` and are used
exactly as printed, including the cells that disagree with the book's prose
formulas (the reference README lists them): the book calls its tables normative.
They are read once, when the module is imported.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

Role = Literal["leader", "adjutant", "coalition"]


def _rows(name: str) -> list[dict[str, str]]:
    with resources.files("engine.data").joinpath(name).open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _int_or_none(text: str) -> int | None:
    return None if text in ("", "-") else int(text)


@dataclass(frozen=True, slots=True)
class Payout:
    """What each role gains (positive) or pays (negative) in one deal."""

    leader: int
    adjutant: int | None
    """Each adjutant's change; ``None`` when the leader stood alone."""
    coalition: int
    """Each coalition member's change."""
    multiplier: int


@dataclass(frozen=True, slots=True)
class _NapoleonRow:
    players: int
    declared: range
    win: bool
    taken: range
    lone: tuple[int, int]
    with_adjutant: tuple[int, int, int]


@cache
def _napoleon_rows() -> tuple[_NapoleonRow, ...]:
    rows = []
    for row in _rows("napoleon_scores.csv"):
        win = row["taken_min"] == "win"
        low = 0 if win else int(row["taken_min"])
        high = 20 if win or row["taken_max"] == "" else int(row["taken_max"])
        rows.append(
            _NapoleonRow(
                players=int(row["players"]),
                declared=range(int(row["declared_min"]), int(row["declared_max"]) + 1),
                win=win,
                taken=range(low, high + 1),
                lone=(int(row["lone_napoleon"]), int(row["lone_coalition_each"])),
                with_adjutant=(
                    int(row["napoleon"]),
                    int(row["adjutant"]),
                    int(row["coalition_each"]),
                ),
            )
        )
    return tuple(rows)


def napoleon_payout(players: int, declared: int, won: bool, taken: int, adjutants: int) -> Payout:
    """Tables C.1-C.3.  Odd declarations share the row of the even count below (C.1.2).

    Six players (6.1.4, two adjutants) have no printed table: appendix C's prose
    formulas are applied with the multiplier of the 5-player table's row (C.3),
    which is the table for the same declarations.
    """
    if players == 6:
        multiplier = napoleon_payout(5, declared, won, taken, 0).multiplier
        return formula_payout(players, 60 * multiplier, won, adjutants, multiplier)
    lone = adjutants == 0
    for row in _napoleon_rows():
        if row.players == players and declared in row.declared and row.win == won:
            if won or taken in row.taken:
                multiplier = abs(row.lone[0]) // 60
                if lone:
                    return Payout(row.lone[0], None, row.lone[1], multiplier)
                leader, adjutant, coalition = row.with_adjutant
                return Payout(leader, adjutant, coalition, multiplier)
    raise LookupError(f"no Napoleon score row for {players} players, {declared} declared")


def formula_payout(players: int, points: int, won: bool, adjutants: int, multiplier: int) -> Payout:
    """Appendix C's prose: who pays whom and the splits inside the army (C.1.1, C.1.2).

    On a win the leader and each adjutant share 2:1; on a loss they pay 3:1
    (each adjutant a third of the leader's share with two adjutants, 3:1:1).
    The coalition shares its side equally.
    """
    coalition = players - 1 - adjutants
    leader_share, adjutant_share = (
        {0: (1, 0), 1: (2, 1), 2: (2, 1)}[adjutants]
        if won
        else {0: (1, 0), 1: (3, 1), 2: (3, 1)}[adjutants]
    )
    parts = leader_share + adjutant_share * adjutants
    sign = 1 if won else -1
    return Payout(
        leader=sign * points * leader_share // parts,
        adjutant=sign * points * adjutant_share // parts if adjutants else None,
        coalition=-sign * points // coalition,
        multiplier=multiplier,
    )


@dataclass(frozen=True, slots=True)
class _RettlerBands:
    declared: range
    win_multiplier: int
    loss: tuple[tuple[range, int], ...]


@cache
def _rettler_bands() -> tuple[_RettlerBands, ...]:
    result = []
    for row in _rows("rettler_multiplier.csv"):
        low = _int_or_none(row["declared_min"]) or 0
        declared = range(low, int(row["declared_max"]) + 1)
        loss = []
        for k in (1, 2, 4, 16):
            start = int(row[f"loss_x{k}_taken_min"])
            end = _int_or_none(row[f"loss_x{k}_taken_max"])
            loss.append((range(start, (end if end is not None else 40) + 1), k))
        result.append(_RettlerBands(declared, int(row["win_multiplier"]), tuple(loss)))
    return tuple(result)


def rettler_multiplier(declared: int, won: bool, taken: int) -> int:
    """Table C.4: by the declared range, on a win; by the cards taken, on a loss."""
    for bands in _rettler_bands():
        if declared in bands.declared:
            if won:
                return bands.win_multiplier
            for taken_range, multiplier in bands.loss:
                if taken in taken_range:
                    return multiplier
    raise LookupError(f"no Rettler multiplier for {declared} declared, {taken} taken")


@cache
def _rettler_scores(won: bool) -> dict[tuple[int, int], dict[str, int | None]]:
    name = "rettler_win_scores.csv" if won else "rettler_loss_scores.csv"
    return {
        (int(row["players"]), int(row["multiplier"])): {
            key: _int_or_none(value) for key, value in row.items() if key[0] in "123"
        }
        for row in _rows(name)
    }


def rettler_payout(players: int, multiplier: int, won: bool, adjutants: int) -> Payout:
    """Tables C.5 (win) and C.6 (loss); the column group is 1 + the adjutants found."""
    cells = _rettler_scores(won)[(players, multiplier)]
    group = adjutants + 1
    leader = cells[f"{group}R"]
    coalition = cells[f"{group}C"]
    if leader is None or coalition is None:
        raise LookupError(f"no Rettler column {group} for {players} players")
    adjutant = cells[f"{group}A"] if adjutants else None
    return Payout(leader, adjutant, coalition, multiplier)


@cache
def rettler_five_player_conversion() -> dict[int, int]:
    """Table 3.3: a 5-player two-adjutant count and the one-adjutant count it ranks with."""
    return {
        int(row["two_adjutant_declared"]): int(row["one_adjutant_equivalent"])
        for row in _rows("rettler_5p_conversion.csv")
    }
