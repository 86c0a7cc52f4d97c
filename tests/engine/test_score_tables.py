"""The engine's copies of appendix C's tables (engine/data) checked against facts kept
in this repository: the prose formulas of C.1.1-C.2.2, recomputed here, and the
cells the book prints otherwise (``appendix_c_printed.txt``, taken from the book).

The book calls its printed tables normative, so the engine uses them as printed;
this test fails when a cell of a table changes, or when a cell that follows the
formulas stops doing so, or when a printed exception is no longer as printed.
"""

from __future__ import annotations

import csv
import math
from fractions import Fraction as F
from importlib import resources
from pathlib import Path

BASE = 60
NAP_MIN = {3: 16, 4: 14, 5: 12}
NAP_ALL, RET_ALL, RET_LOWEST = 20, 40, 20
PRINTED = Path(__file__).with_name("appendix_c_printed.txt")


def rows(name: str) -> list[dict[str, str]]:
    with resources.files("engine.data").joinpath(name).open(encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def win_mult(declared: int, all_cards: int) -> int:
    """Napoleon: 16,17 ×2; 18,19 ×4; 20 ×16.  Rettler: 30-34 ×2, 35-39 ×4, 40 ×16."""
    if all_cards == NAP_ALL:
        return 16 if declared == 20 else 4 if declared >= 18 else 2 if declared >= 16 else 1
    return 16 if declared == 40 else 4 if declared >= 35 else 2 if declared >= 30 else 1


def loss_mult(taken: int, declared: int) -> int:
    """At least 3/4 of the declaration ×1; from 1/2 ×2; from 1/4 ×4; below ×16."""
    r = F(taken, declared)
    return 1 if r >= F(3, 4) else 2 if r >= F(1, 2) else 4 if r >= F(1, 4) else 16


def split(points: int, players: int, adjutants: int, win: bool) -> tuple[F, F | None, F]:
    """(leader, each adjutant, each coalition member): a win 2:1 (2:1:1), a loss 3:1
    (each of two adjutants a third of the leader); the coalition shares equally."""
    p = F(points)
    if adjutants == 0:
        lead, adj = p, None
    elif adjutants == 1:
        lead, adj = (p * 2 / 3, p / 3) if win else (p * 3 / 4, p / 4)
    else:
        lead, adj = (p / 2, p / 4) if win else (p * 3 / 5, p / 5)
    sign = 1 if win else -1
    coalition = p / (players - 1 - adjutants)
    return sign * lead, None if adj is None else sign * adj, -sign * coalition


def show(values: list[F | None]) -> str:
    return "/".join("-" if v is None else str(v) for v in values)


def differences() -> set[str]:
    """Every printed cell that the formulas do not give, as ``table key: printed``."""
    found: set[str] = set()
    cols = ["lone_napoleon", "lone_coalition_each", "napoleon", "adjutant", "coalition_each"]
    nap = rows("napoleon_scores.csv")
    for n in (3, 4, 5):
        for d in range(NAP_MIN[n], NAP_ALL + 1):
            block = [
                r
                for r in nap
                if int(r["players"]) == n and int(r["declared_min"]) <= d <= int(r["declared_max"])
            ]
            for t in [*range(d), "win"]:
                if t == "win":
                    m, win = win_mult(d, NAP_ALL), True
                    hit = [r for r in block if r["taken_min"] == "win"]
                else:
                    assert isinstance(t, int)
                    # The book's own simplification: an odd declaration counts as the even below.
                    m, win = loss_mult(t, d - d % 2), False
                    hit = [
                        r
                        for r in block
                        if r["taken_min"] != "win"
                        and int(r["taken_min"])
                        <= t
                        <= (int(r["taken_max"]) if r["taken_max"] else d - 1)
                    ]
                assert len(hit) == 1, (n, d, t)
                lone, army = split(BASE * m, n, 0, win), split(BASE * m, n, 1, win)
                got = [F(hit[0][c]) for c in cols]
                if got != [lone[0], lone[2], army[0], army[1], army[2]]:
                    found.add(f"C.{n - 2} {n}p declared {d} taken {t}: {show(got)}")  # type: ignore[arg-type]
    mult = rows("rettler_multiplier.csv")
    for d in range(RET_LOWEST, RET_ALL + 1):
        (r,) = [
            r
            for r in mult
            if (not r["declared_min"] or int(r["declared_min"]) <= d)
            and d <= int(r["declared_max"])
        ]
        assert int(r["win_multiplier"]) == win_mult(d, RET_ALL), d
        assert int(r["win_points"]) == BASE * win_mult(d, RET_ALL), d
    for r in mult:
        low = int(r["declared_min"]) if r["declared_min"] else RET_LOWEST
        for m, frac in ((1, F(3, 4)), (2, F(1, 2)), (4, F(1, 4))):
            start = int(r[f"loss_x{m}_taken_min"])
            if all(math.ceil(d * frac) != start for d in range(low, int(r["declared_max"]) + 1)):
                found.add(f"C.4 {r['declared_min']}~{r['declared_max']} x{m} from {start}")
    for name, win, tab in (
        ("rettler_win_scores.csv", True, "C.5"),
        ("rettler_loss_scores.csv", False, "C.6"),
    ):
        for r in rows(name):
            n, m = int(r["players"]), int(r["multiplier"])
            for k in (0, 1, 2):
                want = (None, None, None) if k == 2 and n == 4 else split(BASE * m, n, k, win)
                for column, value in zip(("R", "A", "C"), want, strict=True):
                    key = f"{k + 1}{column}"
                    if key not in r:
                        continue
                    got = None if r[key] == "-" else F(r[key])
                    if got != value:
                        found.add(f"{tab} {n}p x{m} {key}: {got}")
    return found


def test_every_printed_row_is_zero_sum():
    for r in rows("napoleon_scores.csv"):
        n = int(r["players"])
        assert int(r["lone_napoleon"]) + (n - 1) * int(r["lone_coalition_each"]) == 0, r
        assert int(r["napoleon"]) + int(r["adjutant"]) + (n - 2) * int(r["coalition_each"]) == 0, r
    for name in ("rettler_win_scores.csv", "rettler_loss_scores.csv"):
        for r in rows(name):
            n = int(r["players"])
            assert int(r["1R"]) + (n - 1) * int(r["1C"]) == 0, r
            assert int(r["2R"]) + int(r["2A"]) + (n - 2) * int(r["2C"]) == 0, r
            if n > 4:
                assert int(r["3R"]) + 2 * int(r["3A"]) + (n - 3) * int(r["3C"]) == 0, r


def test_the_tables_follow_the_prose_but_where_the_book_prints_otherwise():
    printed = {
        line.strip()
        for line in PRINTED.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert differences() == printed


def test_table_3_3_converts_two_adjutants_as_the_prose_example_says():
    conversion = {
        int(r["two_adjutant_declared"]): int(r["one_adjutant_equivalent"])
        for r in rows("rettler_5p_conversion.csv")
    }
    assert sorted(conversion) == list(range(30, 41))
    assert all(b == 2 * a - 40 for a, b in conversion.items())
    assert conversion[31] < 23  # 3.3.2: one adjutant at 23 outranks two at 31
