"""How the room display (``templates/pages/live.html``) lays out a night's standings to
fit the room's screen without scrolling (issue 56, 5): the standings' rows in one to
three columns by their count, and a type size chosen by the rows a column holds and by
the tables listed beside them.  ``static/clubscore/live.js`` follows the same rule when
it redraws (keep the two alike); the rule is a first guess, which the script then
measures and sets to the largest type the window holds."""

from __future__ import annotations

import math
from typing import Any

ROWS_PER_COLUMN = 12
"""Up to so many rows stand in one column; more are spread over two or three."""
MOST_COLUMNS = 3
ROW_SIZES = (8, 12, 16, 20)
"""The type sizes' steps, by the rows a column holds: ``rows-8`` for up to 8, …
(``static/clubscore/live.css``)."""
TABLE_SIZES = (4, 6, 8)
"""Likewise by the tables listed: ``tables-4`` for up to 4, …"""


def step(count: int, steps: tuple[int, ...]) -> int:
    """The least step that holds ``count`` (the last one beyond)."""
    return next((s for s in steps if count <= s), steps[-1] + 1)


def layout(data: dict[str, Any]) -> dict[str, Any]:
    """The standings of ``data`` (``scoring.live.live``) as columns of tables: each
    column a run of one board's rows (its game named where the night has several; under
    the last, "top 30 of 42" where the board has more lines than the display shows), and
    the classes that size the type."""
    boards = data["standings"]["boards"]
    rows = sum(len(b["rows"]) for b in boards)
    columns = min(MOST_COLUMNS, max(1, math.ceil(rows / ROWS_PER_COLUMN)))
    per = max(1, math.ceil(rows / columns))
    named = len(boards) > 1
    chunks = [
        {
            "caption": b["game_label"] if named else "",
            "rows": b["rows"][i : i + per],
            # Under a board's last column, where its rows were cut short: how many.
            "shown": len(b["rows"]) if last and len(b["rows"]) < b["of"] else 0,
            "of": b["of"],
        }
        for b in boards
        for i in range(0, max(len(b["rows"]), 1), per)
        for last in [i + per >= len(b["rows"])]
    ]
    tables = len(data["tables"])
    return {
        "columns": chunks,
        # Each table's game named where the tables play different games.
        "mixed_games": len({t["game"] for t in data["tables"]}) > 1,
        "classes": f"columns-{columns} rows-{step(height(chunks, columns), ROW_SIZES)} "
        f"tables-{step(tables, TABLE_SIZES)}",
    }


def height(chunks: list[dict[str, Any]], columns: int) -> int:
    """How many rows the standings stand in, as the type's step counts them: the chunks
    fill the columns row by row, each row of the grid as tall as its tallest chunk, a
    chunk its rows ("No deal yet." is one), its heading row, its game's name and its
    "top 30 of 42" line; one heading row is the step's own.  One game whose rows share
    the columns evenly: its rows a column (a night of seven small games stands in as
    many rows as their names and headings take, not their rows alone)."""

    def rows(chunk: dict[str, Any]) -> int:
        return max(len(chunk["rows"]), 1) + 1 + bool(chunk["caption"]) + bool(chunk["shown"])

    grid = [chunks[i : i + columns] for i in range(0, len(chunks), columns)]
    return sum(max(rows(c) for c in line) for line in grid) - 1
