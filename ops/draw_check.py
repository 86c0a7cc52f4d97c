"""Check a night's draw from its seating alone: ``python ops/draw_check.py FILE [--json]
[--lang en|ja]`` (or ``python manage.py check_draw FILE``) reads the night's seating export
(``/nights/<id>/seating.csv``, or any file in its format) and recomputes, round by round,
the measures the draw reports.  docs/draw-check.md defines the file and the measures.

It and the words it shows in English and Japanese (``draw_check_words.py``, beside it)
import the standard library only, and none of Clubscore: they share no code with the draw
(``tournaments.draw_measures``), so that the two can check each other; anyone can run them.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import unicodedata
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from math import lcm
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING or __package__:  # ops.draw_check, within Clubscore
    from ops.draw_check_words import WORDS
else:  # run alone (python draw_check.py, even with -I): the words are in the file beside it
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from draw_check_words import WORDS

ROUND, TABLE, SEAT, PLAYER, NAME = 0, 1, 2, 3, 4
"""The columns read, by position (the headings are in the reader's language)."""

Round = list[list[str]]
"""One round: each table's player ids, seat 1 (the first dealer) first."""
Names = dict[str, str]  # each player's name (column 5) by id
MEASURES = ["most_met", "excess", "consecutive", "seat_off", "first_seat_off"]
COLUMNS = ["round", "seated", "tables", *MEASURES]


def language(code: str | None = None) -> str:
    """The language of a code: ja for one that starts with it (ja, ja-jp, ja_JP.UTF-8),
    else en; with no code, the environment's (LC_ALL, then LC_MESSAGES, then LANG)."""
    env = (os.environ.get(v) for v in ("LC_ALL", "LC_MESSAGES", "LANG"))
    code = code if code is not None else next((c for c in env if c), "")
    return "ja" if code.lower().startswith("ja") else "en"


def say(lang: str, key: str, **params: object) -> str:
    return WORDS[language(lang)][key].format(**params)


class DrawFileError(ValueError):
    """A file that is no seating: the message (by id, in either language) names the line."""

    def __init__(self, key: str, **params: object) -> None:
        self.key, self.params = key, params
        super().__init__(self.say())  # in English: str(error)

    def say(self, lang: str = "en") -> str:
        what = {"what": say(lang, f"w_{self.params['what']}")} if "what" in self.params else {}
        return say(lang, self.key, **{**self.params, **what})


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
        raise DrawFileError("not_whole", line=line, what=what, text=text) from None
    if value < lowest:
        raise DrawFileError("below", line=line, what=what, value=value, lowest=lowest)
    return value


def _name(text: str) -> str:
    """A name as a line can show it: no control characters (no terminal escapes, no line
    breaks), and without the ``'`` the export puts before a formula-like name."""
    text = text[1:] if text.startswith(("'=", "'+", "'-", "'@")) else text
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def read_rounds(lines: Iterable[str], names: Names | None = None) -> list[tuple[int, Round]]:
    """The rounds of a seating file, in the order of their numbers (and into ``names``,
    each player's name by id when a row has it).  Title lines and the header are skipped:
    only a row whose first cell is a whole number is read."""
    seats: dict[int, dict[int, dict[int, tuple[str, int]]]] = {}  # round, table, seat
    where: dict[tuple[int, str], int] = {}  # (round, player): the line that placed them
    names = {} if names is None else names
    reader = csv.reader(lines)
    try:
        rows = [(reader.line_num, row) for row in reader]
    except csv.Error:
        raise DrawFileError("bad_csv", line=reader.line_num) from None
    for line, row in rows:
        cells = [c.strip() for c in row] + [""] * (NAME + 1 - len(row))
        try:
            int(cells[ROUND])
        except ValueError:
            continue  # a title line, a blank line or the header
        number = _number(cells[ROUND], line, "round", 0)
        player = cells[PLAYER]
        if not player:
            raise DrawFileError("no_id", line=line, column=PLAYER + 1)
        if (number, player) in where:
            other = where[number, player]
            raise DrawFileError("twice", line=line, player=player, round=number, other=other)
        where[number, player] = line
        if name := _name(cells[NAME]):
            names.setdefault(player, name)
        tables = seats.setdefault(number, {})
        if not cells[TABLE] and not cells[SEAT]:
            continue  # sat out this round
        if not cells[TABLE] or not cells[SEAT]:
            raise DrawFileError("half", line=line)
        table = _number(cells[TABLE], line, "table", 1)
        seat = _number(cells[SEAT], line, "seat", 1)
        at = tables.setdefault(table, {})
        if seat in at:
            raise DrawFileError(
                "taken", line=line, seat=seat, table=table, round=number, other=at[seat][1]
            )
        at[seat] = (player, line)
    if not seats:
        raise DrawFileError("no_rows")
    rounds: list[tuple[int, Round]] = []
    for number in sorted(seats):
        seated: Round = []
        for table, at in sorted(seats[number].items()):
            order = sorted(at)
            for expected, seat in enumerate(order, 1):
                if seat != expected:
                    line = at[seat][1]
                    raise DrawFileError(
                        "gap", line=line, round=number, table=table, seat=seat, expected=expected
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
        seated, seat_off = sum(len(t) for t in tables), sum(1 for seats in off if seats)
        first = sum(1 for seats in off if 1 in seats)
        return Figures(
            number, seated, len(tables), self.most, self.excess, self.consecutive, seat_off, first
        )

    def who(self, lang: str = "en", names: Names | None = None) -> list[str]:
        """The pairs that met most (twice or more) and the players off balance: by name
        and id ("Ann (16)") where ``names`` has the name, else by id."""
        named = [f"{names[p]} ({p})" if names and p in names else p for p in self.ids]
        lines = [
            say(lang, "met", times=times, a=named[i], b=named[j])
            for (i, j), times in sorted(self.met.items())
            if times == self.most > 1
        ]
        for i, player in enumerate(named):
            for s in self.off(i):
                c, e, u = self.count[i][s] // self.unit, self.share[i][s], self.unit
                fair = f"{e // u}" if e % u == 0 else say(lang, "or", low=e // u, high=e // u + 1)
                lines.append(say(lang, "off", player=player, seat=s, count=c, fair=fair))
        return lines


def check(rounds: list[tuple[int, Round]]) -> list[Figures]:
    """Each round's figures, for the night up to and including that round."""
    night, out = Night(rounds), []
    for position, (number, tables) in enumerate(rounds):
        night.seat(position, tables)
        out.append(night.figures(number, tables))
    return out


def who(rounds: list[tuple[int, Round]], lang: str = "en", names: Names | None = None) -> list[str]:
    """Over the night: the pairs that met most (twice or more), the players off balance."""
    night = Night(rounds)
    for position, (_number, tables) in enumerate(rounds):
        night.seat(position, tables)
    return night.who(lang, names)


def read_file(path: str, names: Names | None = None) -> list[tuple[int, Round]]:
    """The rounds of the file at ``path`` (see :func:`read_rounds`); DrawFileError when
    it cannot be read, as well as when it is no seating."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as file:
            return read_rounds(file, names)
    except UnicodeDecodeError:
        raise DrawFileError("not_csv") from None
    except OSError as error:  # no such file, a folder, not allowed, or the system's words
        ids = {FileNotFoundError: "no_file", IsADirectoryError: "folder", PermissionError: "denied"}
        key = ids.get(type(error), "unreadable")
        raise DrawFileError(key, reason=error.strerror or type(error).__name__) from None


def _width(text: str) -> int:
    """Columns on a terminal: wide (CJK) characters take two."""
    return sum(1 + (unicodedata.east_asian_width(c) in "WF") for c in text)


def report(
    rounds: list[tuple[int, Round]],
    as_json: bool = False,
    lang: str = "en",
    names: Names | None = None,
) -> str:
    """A line a round, the night's (its last round's), what the columns mean, and who
    (in ``lang``, "en" or "ja"); as JSON, the notes name players by id, with ``names``."""
    figures = check(rounds)
    if as_json:
        night = {k: getattr(figures[-1], k) for k in MEASURES}
        notes, rounds_ = who(rounds, lang), [asdict(f) for f in figures]
        return json.dumps(
            {"rounds": rounds_, "night": night, "who": notes, "names": names or {}},
            ensure_ascii=False,
        )
    rows = [[say(lang, key) for key in COLUMNS]]
    rows += [[str(getattr(f, key)) for key in COLUMNS] for f in figures]
    rows.append([say(lang, "night"), "", "", *rows[-1][3:]])
    widths = [max(_width(r[c]) for r in rows) for c in range(len(COLUMNS))]
    lines = [
        "  ".join(" " * (w - _width(c)) + c for c, w in zip(r, widths, strict=True)) for r in rows
    ]
    return "\n".join([*lines, "", say(lang, "key"), "", *who(rounds, lang, names)])


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    """Run as a command: 0, the figures printed; 1, the file is refused (on stderr)."""
    first = argparse.ArgumentParser(add_help=False)  # the language of the help, first
    first.add_argument("--lang")
    lang = language(first.parse_known_args(argv)[0].lang)
    parser = argparse.ArgumentParser(description=say(lang, "about"))
    parser.add_argument("file", help=say(lang, "h_file"))
    parser.add_argument("--json", action="store_true", help=say(lang, "h_json"))
    parser.add_argument("--lang", choices=["en", "ja"], default=lang, help=say(lang, "h_lang"))
    args = parser.parse_args(argv)
    names: Names = {}
    try:
        text = report(read_file(args.file, names), args.json, args.lang, names)
    except DrawFileError as error:
        print(f"{args.file}: {error.say(args.lang)}", file=sys.stderr)
        return 1
    print(text, file=out or sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
