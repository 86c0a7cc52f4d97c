"""A checker anyone can run (issue 57, 5): ``ops/draw_check.py`` rebuilds a night's rounds
from its seating export and recomputes the draw's measures with code of its own; here it
agrees with the draw's report (``tournaments.draw_measures``) on 5,000 seeded random
nights and on a real night's download, counts small nights as a person does by hand, and
refuses a malformed file by its line."""

from __future__ import annotations

import ast
import datetime as dt
import io
import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from openpyxl import load_workbook

from ops import draw_check
from scoring.exports import to_csv
from tests.conftest import member_of
from tournaments import draw_measures
from tournaments.models import Club, ClubNight, Membership, Player, Season
from tournaments.round_draw import play_night
from tournaments.seatings import Seated, of_night
from web.downloads import seating_header, seating_rows

CHECKER = Path(draw_check.__file__)
MEASURES = ("most_met", "excess", "consecutive", "seat_off", "first_seat_off")
NIGHTS = 5000
DRAWN_EVERY = 25
"""One night in this many is drawn by the draw itself (``play_night``), the others at
random: a random night repeats pairs and unbalances seats, where a good draw mostly
reports zeros, which would prove little of the checker."""
SECONDS = 0.002
"""The draw's time bound in these nights (``play_night(seconds=...)``)."""
NASTY = ["=1+1", 'Ann "Ace", Jr.', "two\nlines", "7", "", "鈴木 花子", "-3"]
"""Player names no reader may take for a column (formula, quotes, comma, newline, a number)."""


def checked(text: str) -> list[draw_check.Figures]:
    return draw_check.check(draw_check.read_rounds(io.StringIO(text, newline="")))


def figures(found: list[draw_check.Figures]) -> list[tuple[int, ...]]:
    return [tuple(getattr(f, k) for k in MEASURES) for f in found]


def reported(rounds: list[list[list[int]]]) -> list[tuple[int, ...]]:
    return [tuple(m.as_json()[k] for k in MEASURES) for m in draw_measures.by_round(rounds)]


def exported(night: list[Seated], names: dict[int, str]) -> str:
    """The night as the seating download writes its CSV (the same writer, no database)."""
    return to_csv(seating_header(), seating_rows(night, names)).decode("utf-8-sig")


# -- the checker stands alone ------------------------------------------------------------------


def test_the_checker_imports_only_the_standard_library():
    tree = ast.parse(CHECKER.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "no relative import"
            imported.add((node.module or "").split(".")[0])
    assert imported and imported <= set(sys.stdlib_module_names), imported
    assert not imported & {"tournaments", "scoring", "web", "engine", "ops", "django"}
    assert len(CHECKER.read_text(encoding="utf-8").splitlines()) < 300  # one file to read


# -- counted by hand ---------------------------------------------------------------------------

# Four players, three rounds: a table of 3 (player 4 sits out), a table of 3 (player 3
# sits out), then all four at one table.
#   round 1: pairs 12 13 23 once each; everyone sat once: no seat off.
#   round 2: 12 meets again (most 2, excess 1), and in a row (consecutive 1).
#   round 3: 12 three times, 13 23 14 24 twice, 34 once: most 3, excess 2+1+1+1+1 = 6;
#            12 14 24 again in a row: consecutive 1 + 3 = 4.  Seats: player 1 sat in seat 1
#            twice where the fair share is 1/3 + 1/3 + 1/4 = 11/12 (0 to 1 times): off, in
#            seat 1; player 2 in seat 2 twice (share 11/12): off; player 3 in seat 3 twice
#            (share 1/3 + 1/4): off; player 4 once in seat 3 and once in seat 4: fair.
BY_HAND = [
    Seated(0, 1, [[1, 2, 3]], ["1"], [4]),
    Seated(0, 2, [[2, 1, 4]], ["1"], [3]),
    Seated(0, 3, [[1, 2, 3, 4]], ["1"], []),
]
BY_HAND_FIGURES = [(1, 0, 0, 0, 0), (2, 1, 1, 0, 0), (3, 6, 4, 3, 1)]


def test_a_small_night_counted_by_hand(tmp_path, capsys):
    names = {1: "A", 2: "B", 3: "C", 4: "D"}
    assert figures(checked(exported(BY_HAND, names))) == BY_HAND_FIGURES
    assert reported([r.tables for r in BY_HAND]) == BY_HAND_FIGURES
    # The director is told who: the pair that met most, each player off balance.
    path = tmp_path / "night.csv"
    path.write_text(exported(BY_HAND, names), encoding="utf-8")
    assert draw_check.main([str(path)]) == 0
    assert capsys.readouterr().out.splitlines()[-4:] == [
        "met 3 times: 1 and 2",
        "player 1: seat 1 2 times, a fair share 0 or 1",
        "player 2: seat 2 2 times, a fair share 0 or 1",
        "player 3: seat 3 2 times, a fair share 0 or 1",
    ]


@pytest.mark.parametrize(
    ("tables", "expected"),
    [
        # The same four in the same seats three times: every pair three times, in a row
        # twice; each player three times in one seat where the fair share is 3/4 (seat 1: one).
        ([[1, 2, 3, 4]] * 3, [(1, 0, 0, 0, 0), (2, 6, 6, 4, 1), (3, 12, 12, 4, 1)]),
        # Rotated: each seat once each (round 2: two seats once, share 1/2: fair).
        (
            [[1, 2, 3, 4], [2, 3, 4, 1], [3, 4, 1, 2], [4, 1, 2, 3]],
            [(1, 0, 0, 0, 0), (2, 6, 6, 0, 0), (3, 12, 12, 0, 0), (4, 18, 18, 0, 0)],
        ),
    ],
)
def test_four_at_one_table_counted_by_hand(tables, expected):
    night = [Seated(0, n, [t], ["1"], []) for n, t in enumerate(tables, 1)]
    assert figures(checked(exported(night, {}))) == expected
    assert reported([[t] for t in tables]) == expected


def test_a_round_after_a_gap_in_numbers_follows_the_one_before():
    """Round numbers order the rounds; consecutive means the next round in the file."""
    text = "round,table,seat,id,name,note\n" + "".join(
        f"{r},1,{s},{p},,\n" for r in (2, 5) for s, p in enumerate([7, 8, 9], 1)
    )
    found = checked(text)
    assert [f.round for f in found] == [2, 5] and found[-1].consecutive == 3


# -- 5,000 random nights -----------------------------------------------------------------------


def random_night(seed: int) -> tuple[list[Seated], dict[int, str]]:
    """A night of 3 to 60 players, tables of 3 to 8 (one size or two), 1 to 9 rounds,
    players leaving and arriving between rounds."""
    rng = random.Random(seed)
    low = rng.randint(3, 8)
    sizes = [low] if low == 8 or rng.random() < 0.5 else [low, low + 1]
    pool = rng.sample(range(1, 10**6), rng.randint(low, 60))
    names = {p: rng.choice([*NASTY, f"Player {p}"]) for p in pool}
    present = set(rng.sample(pool, rng.randint(low, len(pool))))
    attendance = []
    for _ in range(rng.randint(1, 9)):
        attendance.append(sorted(present))
        leaving = rng.sample(sorted(present), min(len(present) - low, rng.randint(0, 4)))
        absent = [p for p in pool if p not in present]
        arriving = rng.sample(absent, min(len(absent), rng.randint(0, 4)))
        present = (present - set(leaving)) | set(arriving)
    if seed % DRAWN_EVERY == 0:
        drawn = list(play_night(attendance, sizes, rng.choice(sizes), rng, seconds=SECONDS))
        rounds = [(d.tables, d.sat_out) for d in drawn]
    else:
        rounds = [seated_at_random(players, sizes, rng) for players in attendance]
    night = [Seated(seed, n, tables, [], out) for n, (tables, out) in enumerate(rounds, 1)]
    return night, names


def seated_at_random(
    players: list[int], sizes: list[int], rng: random.Random
) -> tuple[list[list[int]], list[int]]:
    shuffled = rng.sample(players, len(players))
    tables = []
    while fits := [s for s in sizes if s <= len(shuffled)]:
        size = rng.choice(fits)
        tables.append(shuffled[:size])
        shuffled = shuffled[size:]
    return tables, shuffled


@pytest.mark.slow
def test_the_checker_agrees_with_the_draw_on_5000_random_nights():
    started = time.process_time()  # this process's time: a busy machine slows the clock
    for seed in range(NIGHTS):
        night, names = random_night(seed)
        read = draw_check.read_rounds(io.StringIO(exported(night, names), newline=""))
        assert read == [(r.number, [[str(p) for p in t] for t in r.tables]) for r in night]
        found = draw_check.check(read)
        assert figures(found) == reported([r.tables for r in night]), seed
        assert [f.seated for f in found] == [sum(map(len, r.tables)) for r in night]
    assert time.process_time() - started < 60


# -- a real night, downloaded ------------------------------------------------------------------


@pytest.fixture
def night(club, django_user_model):
    """A private season's night of two Napoleon rounds of nine players."""
    from tournaments import rounds

    season = Season.objects.create(club=club, name="Open", games=["napoleon"])
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 28), venue="Hall")
    nine = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"P{i}").pk
        for i in range(1, 10)
    ]
    director = member_of(club, django_user_model, "dir", Membership.Role.ADMIN)
    draw = {"game": "napoleon", "players": nine, "deals": 1, "method": "balanced"}
    first = rounds.next_round(night, seed=1, **draw)
    rounds.end_early(first, director, "the hall closes early")
    rounds.next_round(night, seed=2, size=4, **draw)  # two tables of 4: one sits out
    return night


def reader_of(club, django_user_model, role=Membership.Role.MEMBER) -> Client:
    client = Client()
    client.force_login(member_of(club, django_user_model, "reader", role))
    return client


def test_the_downloaded_seating_agrees_with_the_draw(night, club, django_user_model, tmp_path):
    reader = reader_of(club, django_user_model)
    answer = reader.get(f"/nights/{night.pk}/seating.csv")
    assert answer.status_code == 200 and answer["Content-Type"] == "text/csv; charset=utf-8"
    assert "seating.csv" in answer["Content-Disposition"]
    data = answer.getvalue()  # streamed: read once
    text = data.decode("utf-8-sig")
    seated = of_night(night)
    assert [r.number for r in seated] == [1, 2] and len(seated[1].sat_out) == 1
    expected = reported([r.tables for r in seated])
    assert figures(checked(text)) == expected
    assert "Sat out" in text and text.splitlines()[0].startswith("Round,Table,Seat")
    # Both other ways to run it: the command, and the file alone with Python only.
    path = tmp_path / "seating.csv"
    path.write_bytes(data)
    out = io.StringIO()
    call_command("check_draw", str(path), "--json", stdout=out)
    assert [tuple(r[k] for k in MEASURES) for r in json.loads(out.getvalue())["rounds"]] == (
        expected
    )
    alone = subprocess.run(
        [sys.executable, "-I", str(CHECKER), str(path)], capture_output=True, text=True, cwd="/"
    )
    assert alone.returncode == 0, alone.stderr
    assert alone.stdout.splitlines()[0].split()[:3] == ["round", "seated", "tables"]
    night_line = next(x for x in alone.stdout.splitlines() if x.startswith("night"))
    assert night_line.split()[1:] == [str(n) for n in expected[-1]]


def test_a_japanese_readers_file_is_read_the_same(night, club, django_user_model):
    """The headings and "sat out" are in the reader's language; the checker reads positions."""
    reader = reader_of(club, django_user_model)
    english = reader.get(f"/nights/{night.pk}/seating.csv").getvalue().decode("utf-8-sig")
    reader.cookies["django_language"] = "ja"
    japanese = reader.get(f"/nights/{night.pk}/seating.csv").getvalue().decode("utf-8-sig")
    assert japanese.splitlines()[0].startswith("ラウンド,卓,席") and "休み" in japanese
    assert figures(checked(japanese)) == figures(checked(english))
    book = load_workbook(io.BytesIO(reader.get(f"/nights/{night.pk}/seating.xlsx").getvalue()))
    titles = [row[0] for row in book.active.iter_rows(values_only=True)][:5]
    assert any(str(t).startswith("第 2 ラウンド: 最多同卓") for t in titles), titles


def test_the_workbook_and_the_pdf_carry_the_draws_measures(night, club, django_user_model):
    reader = reader_of(club, django_user_model)
    xlsx = reader.get(f"/nights/{night.pk}/seating.xlsx")
    assert xlsx.status_code == 200
    assert xlsx["Content-Type"] == (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    rows = list(load_workbook(io.BytesIO(xlsx.getvalue())).active.iter_rows(values_only=True))
    last = draw_measures.by_round([r.tables for r in of_night(night)])[-1]
    line = next(str(r[0]) for r in rows if str(r[0]).startswith("Round 2:"))
    assert f"most times a pair met: {last.most_met}" in line
    assert f"excess meetings: {last.excess}" in line
    seats = [r for r in rows if isinstance(r[0], int)]
    assert len(seats) == 9 + 9 and all(isinstance(r[3], int) for r in seats)
    pdf = reader.get(f"/nights/{night.pk}/seating.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    text = subprocess.run(
        ["pdftotext", "-", "-"], input=pdf.content, capture_output=True, check=True
    ).stdout.decode()
    assert "Round 1: most times a pair met: 1" in " ".join(text.split())


def test_a_private_nights_seating_is_for_its_club_alone(night, club, django_user_model):
    url = f"/nights/{night.pk}/seating.csv"
    assert Client().get(url).status_code == 404
    other = Club.objects.create(name="Other", slug="other")
    stranger = Client()
    stranger.force_login(member_of(other, django_user_model, "other", Membership.Role.ADMIN))
    assert stranger.get(url).status_code == 404
    assert stranger.get(f"/nights/{night.pk + 999}/seating.csv").status_code == 404
    reader = reader_of(club, django_user_model)
    answer = reader.get(url)
    assert answer.status_code == 200 and "no-store" in answer["Cache-Control"]
    for suffix in ("txt", "json", "CSV", "csv/", "csv.exe", "pdf.pdf", ""):
        assert reader.get(f"/nights/{night.pk}/seating.{suffix}").status_code == 404, suffix
    assert reader.get(f"/nights/{night.pk}/seating.pdf%00").status_code == 400  # NUL: refused
    assert reader.post(url).status_code == 405


def test_a_night_without_rounds_downloads_an_empty_seating(club, django_user_model):
    season = Season.objects.create(club=club, name="Quiet", games=["napoleon"], public=True)
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 12, 1), venue="Hall")
    answer = Client().get(f"/nights/{night.pk}/seating.csv")
    assert answer.status_code == 200
    assert answer.getvalue().decode("utf-8-sig").splitlines() == [
        "Round,Table,Seat,Player ID,Player,Note"
    ]
    for fmt in ("xlsx", "pdf"):
        assert Client().get(f"/nights/{night.pk}/seating.{fmt}").status_code == 200


# -- files refused -----------------------------------------------------------------------------

HEADER = "Round,Table,Seat,Player ID,Player,Note\n"


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("1,1,1,7,A,\n1,1,2,8,B,\n1,2,1,7,A,\n", "line 4: player 7 is in round 1 twice"),
        ("1,1,1,7,A,\n1,,,7,A,Sat out\n", "line 3: player 7 is in round 1 twice"),
        ("1,1,1,7,A,\n1,1,1,8,B,\n", "line 3: seat 1 of table 1 in round 1 is taken twice"),
        ("1,1,1,7,A,\n1,1,3,8,B,\n", "line 3: round 1, table 1 has seat 3 but no seat 2"),
        ("1,1,2,7,A,\n", "line 2: round 1, table 1 has seat 2 but no seat 1"),
        ("1,1,,7,A,\n", "line 2: a table needs a seat"),
        ("1,1,x,7,A,\n", "line 2: the seat 'x' is not a whole number"),
        ("1,1,0,7,A,\n", "line 2: the seat 0 is below 1"),
        ("1,-2,1,7,A,\n", "line 2: the table -2 is below 1"),
        ("-1,1,1,7,A,\n", "line 2: the round -1 is below 0"),
        ("1,1,1,,A,\n", "line 2: no player id"),
        ("1,1,1\n", "line 2: no player id"),
        ("", "no seating rows"),
        ("Round 1,Table,Seat\n", "no seating rows"),
    ],
)
def test_a_malformed_file_is_refused_by_its_line(tmp_path, capsys, body, said):
    path = tmp_path / "night.csv"
    path.write_text(HEADER + body, encoding="utf-8")
    assert draw_check.main([str(path)]) == 1
    err = capsys.readouterr().err
    assert said in err and err.startswith(str(path)), err
    with pytest.raises(CommandError, match=said.replace("(", r"\(")):
        call_command("check_draw", str(path))


def test_what_is_no_csv_is_refused_with_a_non_zero_exit(tmp_path):
    binary = tmp_path / "seating.xlsx"
    binary.write_bytes(b"PK\x03\x04\xff\xfe\x00garbage")
    for path in (binary, tmp_path / "missing.csv"):
        run = subprocess.run(
            [sys.executable, "-I", str(CHECKER), str(path)], capture_output=True, text=True
        )
        assert run.returncode == 1 and str(path) in run.stderr and not run.stdout
        assert "Traceback" not in run.stderr
        assert ("download the seating as CSV" in run.stderr) == (path == binary)
    usage = subprocess.run([sys.executable, "-I", str(CHECKER)], capture_output=True, text=True)
    assert usage.returncode == 2 and "usage" in usage.stderr
