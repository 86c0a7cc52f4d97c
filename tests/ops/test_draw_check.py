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
import os
import random
import re
import string
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import translation
from openpyxl import load_workbook

from ops import draw_check, draw_check_words
from scoring.exports import to_csv
from tests.conftest import member_of
from tournaments import draw_measures
from tournaments.models import Club, ClubNight, Membership, Player, Season
from tournaments.round_draw import play_night
from tournaments.seatings import Seated, of_night
from web.downloads import seating_header, seating_rows

CHECKER = Path(draw_check.__file__)
WORDS = Path(draw_check_words.__file__)
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


def imports(path: Path) -> set[str]:
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "no relative import"
            imported.add(node.module or "")
    return imported


def test_the_checker_imports_only_the_standard_library():
    """The checker and its words (the two files, side by side): nothing else of Clubscore."""
    imported = imports(CHECKER) - {"ops.draw_check_words", "draw_check_words"}
    assert imported and {m.split(".")[0] for m in imported} <= set(sys.stdlib_module_names)
    assert imports(WORDS) == set()
    for path in (CHECKER, WORDS):
        assert len(path.read_text(encoding="utf-8").splitlines()) < 300  # a file to read


def test_every_message_is_in_english_and_in_japanese():
    """The same ids in both tables, each with the same parameters, none left untranslated."""
    en, ja = draw_check_words.EN, draw_check_words.JA
    assert en.keys() == ja.keys() and draw_check_words.WORDS == {"en": en, "ja": ja}

    def fields(text: str) -> set[str]:
        return {name for _t, name, _f, _c in string.Formatter().parse(text) if name}

    for key in en:
        assert fields(en[key]) == fields(ja[key]) and en[key] and ja[key], key
        if key not in {"key", "or"}:
            assert any("\u3040" <= c <= "\u9fff" for c in ja[key]), (key, ja[key])


@pytest.mark.parametrize(
    ("environment", "lang"),
    [
        ({"LANG": "ja_JP.UTF-8"}, "ja"),
        ({"LC_ALL": "ja_JP.eucJP", "LANG": "en_GB.UTF-8"}, "ja"),
        ({"LC_MESSAGES": "ja", "LANG": "C"}, "ja"),
        ({"LC_ALL": "C.UTF-8", "LANG": "ja_JP.UTF-8"}, "en"),  # LC_ALL first
        ({"LC_ALL": "", "LANG": "ja_JP.UTF-8"}, "ja"),  # an empty one does not count
        ({"LANG": "jam"}, "ja"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_language_comes_from_the_environment(monkeypatch, environment, lang):
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert draw_check.language() == lang
    assert draw_check.language("ja-jp") == "ja" and draw_check.language("en-us") == "en"


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


BY_HAND_NAMES = {1: "青木 彩", 2: "井上 大輔", 3: "C", 4: "D"}


def test_a_small_night_counted_by_hand(tmp_path, capsys):
    assert figures(checked(exported(BY_HAND, BY_HAND_NAMES))) == BY_HAND_FIGURES
    assert reported([r.tables for r in BY_HAND]) == BY_HAND_FIGURES
    # The director is told who, by name and id: the pair that met most, each player off balance.
    path = tmp_path / "night.csv"
    path.write_text(exported(BY_HAND, BY_HAND_NAMES), encoding="utf-8")
    assert draw_check.main(["--lang", "en", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["round", "seated", "tables", "most", "met", "excess"] + [
        "consecutive",
        "seat",
        "off",
        "first",
        "seat",
        "off",
    ]
    assert out[-4:] == [
        "met 3 times: 青木 彩 (1) and 井上 大輔 (2)",
        "player 青木 彩 (1): seat 1 2 times, a fair share 0 or 1",
        "player 井上 大輔 (2): seat 2 2 times, a fair share 0 or 1",
        "player C (3): seat 3 2 times, a fair share 0 or 1",
    ]
    # As JSON, by id, the names beside.
    assert draw_check.main(["--lang", "en", "--json", str(path)]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["who"][0] == "met 3 times: 1 and 2"
    assert found["names"] == {str(p): name for p, name in BY_HAND_NAMES.items()}


JAPANESE_HEADINGS = ["ラウンド", "着席", "卓数", "最多同卓", "重複", "連続同卓", "席の偏り"]
JAPANESE_WHO = [
    "3 回同卓: 青木 彩 (1) と 井上 大輔 (2)",
    "プレイヤー 青木 彩 (1): 席 1 に 2 回（公平な回数 0〜1）",
    "プレイヤー 井上 大輔 (2): 席 2 に 2 回（公平な回数 0〜1）",
    "プレイヤー C (3): 席 3 に 2 回（公平な回数 0〜1）",
]


def alone(*args: str, lang: str = "C.UTF-8") -> subprocess.CompletedProcess:
    """The checker run with Python alone (-I: no Clubscore on the path), in LANG ``lang``."""
    env = {"PATH": os.environ.get("PATH", ""), "LANG": lang}
    return subprocess.run(
        [sys.executable, "-I", str(CHECKER), *args],
        capture_output=True,
        encoding="utf-8",
        cwd="/",
        env=env,
    )


def test_a_small_night_in_japanese(tmp_path):
    """The same night with --lang ja, from LANG, and in the command (--lang or the active
    language): the headings, the key, the night's line and who, in Japanese."""
    path = tmp_path / "night.csv"
    path.write_text(exported(BY_HAND, BY_HAND_NAMES), encoding="utf-8")
    outputs = [alone("--lang", "ja", str(path)), alone(str(path), lang="ja_JP.UTF-8")]
    assert all(run.returncode == 0 and not run.stderr for run in outputs)
    texts = [run.stdout for run in outputs]
    for kwargs in ({"lang": "ja"}, {}):
        out = io.StringIO()
        with translation.override("ja" if not kwargs else "en"):
            call_command("check_draw", str(path), stdout=out, **kwargs)
        texts.append(out.getvalue())
    assert texts[0] == texts[1] == texts[2].rstrip("\n") + "\n" == texts[3].rstrip("\n") + "\n"
    lines = texts[0].splitlines()
    assert lines[0].split() == [*JAPANESE_HEADINGS, "席1の偏り"]
    assert lines[4].split() == ["夜全体", *map(str, BY_HAND_FIGURES[-1])]
    assert "最多同卓    同じ 2 人が同じ卓に座ったラウンド数の最大" in lines
    assert lines[-4:] == JAPANESE_WHO
    assert not any(c.isascii() and c.isalpha() for c in "".join(lines[:-4]).replace("C", ""))
    # The English run, by contrast, and a wrong language.
    assert alone("--lang", "en", str(path)).stdout.startswith("round")
    wrong = alone("--lang", "fr", str(path))
    assert wrong.returncode == 2 and "--lang" in wrong.stderr and not wrong.stdout


def test_names_are_shown_inert(tmp_path):
    """A player's name is anyone's to choose: control characters (a terminal's escapes, a
    line break, a right-to-left override) become spaces, so a name can neither restyle the
    director's terminal nor forge a line; the export's ' before a formula is taken off."""
    names = {
        "1": "\x1b[2J\x1b[31mEvil",
        "2": "two\nlines\r\nmet 9 times: 1 and 2",
        "3": "'=1+1",
        "4": "\u202eevil\u202c",
        "5": "'plain",
    }
    row = '{},1,{},{},"{}",\n'
    text = HEADER + "".join(
        row.format(r, s, p, n) for r in (1, 2) for s, (p, n) in enumerate(names.items(), 1)
    )
    shown: dict[str, str] = {}
    draw_check.read_rounds(io.StringIO(text, newline=""), shown)
    assert shown == {
        "1": "[2J [31mEvil",
        "2": "two lines met 9 times: 1 and 2",
        "3": "=1+1",
        "4": "evil",
        "5": "'plain",
    }
    path = tmp_path / "night.csv"
    path.write_text(text, encoding="utf-8")
    run = alone("--lang", "en", str(path))
    assert run.returncode == 0 and "\x1b" not in run.stdout and "\u202e" not in run.stdout
    assert "met 2 times: [2J [31mEvil (1) and two lines met 9 times: 1 and 2 (2)" in run.stdout
    assert not any(line.startswith("met 9") for line in run.stdout.splitlines())
    # A name on a later row only (the first blank) still counts; the first name wins.
    shown = {}
    text = HEADER + "1,1,1,7,,\n2,1,1,7,Ann,\n3,1,1,7,Bo,\n"
    draw_check.read_rounds(io.StringIO(text), shown)
    assert shown == {"7": "Ann"}


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
    from actions import rounds

    season = Season.objects.create(club=club, name="Open", games=["napoleon"])
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 28), venue="Hall")
    nine = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"P{i}").pk
        for i in range(1, 10)
    ]
    director = member_of(club, django_user_model, "dir", Membership.Role.ADMIN)
    draw = {"game": "napoleon", "players": nine, "deals": 1, "method": "balanced"}
    first = rounds.draw_next_round(night, seed=1, **draw).round
    rounds.end_early(first, director, "the hall closes early")
    rounds.draw_next_round(night, seed=2, size=4, **draw)  # two tables of 4: one sits out
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
    run = alone("--lang", "en", str(path))
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0].split()[:3] == ["round", "seated", "tables"]
    night_line = next(x for x in run.stdout.splitlines() if x.startswith("night"))
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


REFUSALS = [
    (
        "1,1,1,7,A,\n1,1,2,8,B,\n1,2,1,7,A,\n",
        "line 4: player 7 is in round 1 twice (also on line 2)",
        "4 行目: プレイヤー 7 がラウンド 1 に 2 回います（2 行目にも）",
    ),
    (
        "1,1,1,7,A,\n1,,,7,A,Sat out\n",
        "line 3: player 7 is in round 1 twice",
        "3 行目: プレイヤー 7 がラウンド 1 に 2 回います",
    ),
    (
        "1,1,1,7,A,\n1,1,1,8,B,\n",
        "line 3: seat 1 of table 1 in round 1 is taken twice (also on line 2)",
        "3 行目: ラウンド 1 の卓 1 の席 1 に 2 人います（2 行目にも）",
    ),
    (
        "1,1,1,7,A,\n1,1,3,8,B,\n",
        "line 3: round 1, table 1 has seat 3 but no seat 2",
        "3 行目: ラウンド 1 の卓 1 に席 3 があり、席 2 がありません",
    ),
    (
        "1,1,2,7,A,\n",
        "line 2: round 1, table 1 has seat 2 but no seat 1",
        "2 行目: ラウンド 1 の卓 1 に席 2 があり、席 1 がありません",
    ),
    ("1,1,,7,A,\n", "line 2: a table needs a seat", "2 行目: 卓には席が、席には卓が必要です"),
    (
        "1,1,x,7,A,\n",
        "line 2: the seat 'x' is not a whole number",
        "2 行目: 席の「x」は整数ではありません",
    ),
    ("1,1,0,7,A,\n", "line 2: the seat 0 is below 1", "2 行目: 席の 0 は 1 未満です"),
    ("1,-2,1,7,A,\n", "line 2: the table -2 is below 1", "2 行目: 卓の -2 は 1 未満です"),
    ("-1,1,1,7,A,\n", "line 2: the round -1 is below 0", "2 行目: ラウンドの -1 は 0 未満です"),
    ("1,1,1,,A,\n", "line 2: no player id", "2 行目: 4 列目にプレイヤー ID がありません"),
    ("1,1,1\n", "line 2: no player id", "2 行目: 4 列目にプレイヤー ID がありません"),
    ("", "no seating rows", "席順の行がありません"),
    ("Round 1,Table,Seat\n", "no seating rows", "席順の行がありません"),
    (  # a cell beyond the CSV reader's limit: refused by its line, no traceback
        "1,1,1,7,A,\n1,1,2,8," + "B" * 200_000 + "\n",
        "line 3: cannot be read as CSV",
        "3 行目を CSV として読めません",
    ),
]


@pytest.mark.parametrize(("body", "said", "japanese"), REFUSALS)
def test_a_malformed_file_is_refused_by_its_line(tmp_path, capsys, body, said, japanese):
    path = tmp_path / "night.csv"
    path.write_text(HEADER + body, encoding="utf-8")
    for lang, words in (("en", said), ("ja", japanese)):
        assert draw_check.main(["--lang", lang, str(path)]) == 1
        err = capsys.readouterr().err
        assert words in err and err.startswith(str(path)), err
        with pytest.raises(CommandError, match=re.escape(words)):
            call_command("check_draw", str(path), lang=lang)
    with translation.override("ja"), pytest.raises(CommandError, match=re.escape(japanese)):
        call_command("check_draw", str(path))
    with translation.override("en"), pytest.raises(CommandError, match=re.escape(said)):
        call_command("check_draw", str(path))


def test_a_japanese_refusal_from_python_alone(tmp_path):
    path = tmp_path / "night.csv"
    path.write_text(HEADER + REFUSALS[2][0], encoding="utf-8")
    for run in (alone("--lang", "ja", str(path)), alone(str(path), lang="ja_JP.UTF-8")):
        assert run.returncode == 1 and not run.stdout
        assert run.stderr == f"{path}: {REFUSALS[2][2]}\n"
    missing, folder = alone("--lang", "ja", str(tmp_path / "x.csv")), alone("--lang", "ja", "/")
    assert missing.stderr.endswith("x.csv: ファイルがありません\n") and missing.returncode == 1
    assert folder.stderr == "/: ファイルではなくフォルダーです\n" and folder.returncode == 1
    binary = tmp_path / "seating.xlsx"
    binary.write_bytes(b"PK\x03\x04\xff\xfe\x00garbage")
    assert "席順を CSV でダウンロードしてください" in alone("--lang", "ja", str(binary)).stderr


def test_what_is_no_csv_is_refused_with_a_non_zero_exit(tmp_path):
    binary = tmp_path / "seating.xlsx"
    binary.write_bytes(b"PK\x03\x04\xff\xfe\x00garbage")
    for path in (binary, tmp_path / "missing.csv"):
        run = alone("--lang", "en", str(path))
        assert run.returncode == 1 and str(path) in run.stderr and not run.stdout
        assert "Traceback" not in run.stderr
        assert ("download the seating as CSV" in run.stderr) == (path == binary)
    usage = subprocess.run([sys.executable, "-I", str(CHECKER)], capture_output=True, text=True)
    assert usage.returncode == 2 and "usage" in usage.stderr
