"""Check a night's draw from its seating alone: ``python ops/draw_check.py FILE [--json]``
(or ``python manage.py check_draw FILE``) reads the night's seating export
(``/nights/<id>/seating.csv``, or any file in its format) and recomputes, round by round,
the measures the draw reports.  docs/draw-check.md defines the file and the measures.

This file imports the standard library only, and none of Clubscore: it shares no code
with the draw (``tournaments.draw_measures``), so that the two can check each other, and
anyone with the export and Python can run it.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from math import lcm
from typing import TextIO

ROUND, TABLE, SEAT, PLAYER = 0, 1, 2, 3
"""The columns read, by position (the headings are in the reader's language)."""

Round = list[list[str]]
"""One round: each table's player ids, seat 1 (the first dealer) first."""
MEASURES = ["most_met", "excess", "consecutive", "seat_off", "first_seat_off"]


class DrawFileError(ValueError):
    """A file that is no seating: the message names the line."""


REFUSED = (OSError, UnicodeDecodeError, csv.Error, DrawFileError)
"""Why a file cannot be checked: unreadable, not UTF-8 text, not CSV, no seating."""


@dataclass
class Figures:
    """A round's figures: the night's up to and including it."""

    round: int
    seated: int
    tables: int
    most_met: int
    excess: int
    consecutive: int
    seat_off: int
    first_seat_off: int


def _number(text: str, line: int, what: str, lowest: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise DrawFileError(f"line {line}: the {what} {text!r} is not a whole number") from None
    if value < lowest:
        raise DrawFileError(f"line {line}: the {what} {value} is below {lowest}")
    return value


def read_rounds(lines: Iterable[str]) -> list[tuple[int, Round]]:
    """The rounds of a seating file, in the order of their numbers.  Title lines and the
    header are skipped: only a row whose first cell is a whole number is read."""
    seats: dict[int, dict[int, dict[int, tuple[str, int]]]] = {}  # round, table, seat
    where: dict[tuple[int, str], int] = {}  # (round, player): the line that placed them
    reader = csv.reader(lines)
    for row in reader:
        line = reader.line_num
        cells = [c.strip() for c in row] + [""] * (PLAYER + 1 - len(row))
        try:
            int(cells[ROUND])
        except ValueError:
            continue  # a title line, a blank line or the header
        number = _number(cells[ROUND], line, "round", 0)
        player = cells[PLAYER]
        if not player:
            raise DrawFileError(f"line {line}: no player id in column {PLAYER + 1}")
        if (number, player) in where:
            raise DrawFileError(
                f"line {line}: player {player} is in round {number} twice"
                f" (also on line {where[number, player]})"
            )
        where[number, player] = line
        tables = seats.setdefault(number, {})
        if not cells[TABLE] and not cells[SEAT]:
            continue  # sat out this round
        if not cells[TABLE] or not cells[SEAT]:
            raise DrawFileError(f"line {line}: a table needs a seat, and a seat a table")
        table = _number(cells[TABLE], line, "table", 1)
        seat = _number(cells[SEAT], line, "seat", 1)
        at = tables.setdefault(table, {})
        if seat in at:
            raise DrawFileError(
                f"line {line}: seat {seat} of table {table} in round {number} is taken twice"
                f" (also on line {at[seat][1]})"
            )
        at[seat] = (player, line)
    if not seats:
        raise DrawFileError("no seating rows: no line starts with a round number")
    rounds: list[tuple[int, Round]] = []
    for number in sorted(seats):
        seated: Round = []
        for table, at in sorted(seats[number].items()):
            order = sorted(at)
            for expected, seat in enumerate(order, 1):
                if seat != expected:
                    raise DrawFileError(
                        f"line {at[seat][1]}: round {number}, table {table} has seat {seat}"
                        f" but no seat {expected}"
                    )
            seated.append([at[s][0] for s in order])
        rounds.append((number, seated))
    return rounds


class Night:
    """The night so far, seated round by round: a matrix of meetings (player by player)
    and, for each player, a vector of their counts in each seat beside a vector of their
    fair share of it, both in units of 1/L (L: the least common multiple of the table
    sizes), so that a fair share is a whole number of units."""

    def __init__(self, rounds: list[tuple[int, Round]]) -> None:
        sizes = {len(t) for _n, tables in rounds for t in tables}
        self.ids = list(dict.fromkeys(p for _n, ts in rounds for t in ts for p in t))
        self.index = {p: i for i, p in enumerate(self.ids)}
        self.unit, widest = lcm(1, *sizes), max(sizes, default=0)
        self.met: dict[tuple[int, int], int] = {}  # (i, j), i < j: rounds at one table
        self.last: dict[tuple[int, int], int] = {}  # (i, j): the last round they met
        self.count = [[0] * (widest + 1) for _ in self.ids]
        self.share = [[0] * (widest + 1) for _ in self.ids]
        self.most = self.excess = self.consecutive = 0

    def seat(self, position: int, tables: Round) -> None:
        for table in tables:
            ids = sorted(self.index[p] for p in table)
            for a, i in enumerate(ids):
                for j in ids[a + 1 :]:
                    self.met[i, j] = times = self.met.get((i, j), 0) + 1
                    self.most = max(self.most, times)
                    self.excess += times > 1
                    self.consecutive += self.last.get((i, j)) == position - 1
                    self.last[i, j] = position
            for seat, player in enumerate(table, 1):
                self.count[self.index[player]][seat] += self.unit
                for s in range(1, len(table) + 1):
                    self.share[self.index[player]][s] += self.unit // len(table)

    def off(self, i: int) -> list[int]:
        """Player i's seats outside floor(e)..ceil(e), that is: a whole seat or more from e."""
        pairs = enumerate(zip(self.count[i], self.share[i], strict=True))
        return [s for s, (c, e) in pairs if abs(c - e) >= self.unit]

    def figures(self, number: int, tables: Round) -> Figures:
        off = [self.off(i) for i in range(len(self.ids))]
        return Figures(
            round=number,
            seated=sum(len(t) for t in tables),
            tables=len(tables),
            most_met=self.most,
            excess=self.excess,
            consecutive=self.consecutive,
            seat_off=sum(1 for seats in off if seats),
            first_seat_off=sum(1 for seats in off if 1 in seats),
        )

    def who(self) -> list[str]:
        """The pairs that met most (twice or more) and the players off balance, by id."""
        lines = [
            f"met {times} times: {self.ids[i]} and {self.ids[j]}"
            for (i, j), times in sorted(self.met.items())
            if times == self.most > 1
        ]
        for i, player in enumerate(self.ids):
            for s in self.off(i):
                c, e, u = self.count[i][s] // self.unit, self.share[i][s], self.unit
                fair = f"{e // u}" if e % u == 0 else f"{e // u} or {e // u + 1}"
                lines.append(f"player {player}: seat {s} {c} times, a fair share {fair}")
        return lines


def check(rounds: list[tuple[int, Round]]) -> list[Figures]:
    """Each round's figures, for the night up to and including that round."""
    night, out = Night(rounds), []
    for position, (number, tables) in enumerate(rounds):
        night.seat(position, tables)
        out.append(night.figures(number, tables))
    return out


def who(rounds: list[tuple[int, Round]]) -> list[str]:
    """Over the night: the pairs that met most (twice or more), the players off balance."""
    night = Night(rounds)
    for position, (_number, tables) in enumerate(rounds):
        night.seat(position, tables)
    return night.who()


def read_file(path: str) -> list[tuple[int, Round]]:
    try:
        with open(path, encoding="utf-8-sig", newline="") as file:
            return read_rounds(file)
    except UnicodeDecodeError:
        raise DrawFileError(
            "not CSV text (an XLSX or a PDF?): download the seating as CSV"
        ) from None


COLUMNS = ["round", "seated", "tables", *MEASURES]
KEY = """
Each round's figures are the night's up to and including that round.
most met        the most rounds any two players sat at one table
excess          over every pair, the rounds together beyond their first
consecutive     a pair at one table in a round and again in the next
seat off        players whose count in some seat is a whole seat or more
                from their fair share; first seat off: the same for seat 1
"""


def report(rounds: list[tuple[int, Round]], as_json: bool = False) -> str:
    """A line a round, the night's (its last round's), what the columns mean, and who."""
    figures, notes = check(rounds), who(rounds)
    if as_json:
        night = {k: getattr(figures[-1], k) for k in MEASURES}
        return json.dumps({"rounds": [asdict(f) for f in figures], "night": night, "who": notes})
    rows = [[key.replace("_", " ") for key in COLUMNS]]
    rows += [[str(getattr(f, key)) for key in COLUMNS] for f in figures]
    rows.append(["night", "", "", *rows[-1][3:]])
    widths = [max(len(r[c]) for r in rows) for c in range(len(COLUMNS))]
    lines = ["  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join([*lines, KEY, *notes])


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    """Run as a command: 0, the figures printed; 1, the file is refused (on stderr)."""
    parser = argparse.ArgumentParser(description="Check a night's draw from its seating.")
    parser.add_argument("file", help="the night's seating export (CSV)")
    parser.add_argument("--json", action="store_true", help="the figures as JSON")
    args = parser.parse_args(argv)
    try:
        text = report(read_file(args.file), args.json)
    except REFUSED as error:
        print(f"{args.file}: {error}", file=sys.stderr)
        return 1
    print(text, file=out or sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
