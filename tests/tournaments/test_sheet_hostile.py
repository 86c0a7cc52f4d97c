"""Score sheets as people really fill them in, and as they break: every file is either
previewed with its mistakes at their rows and columns, or refused in words; never an
exception, never a database error at import."""

from __future__ import annotations

import io
import random
import zipfile

import pytest

from actions import imports
from tournaments.errors import Rejection
from tournaments.games import LEAGUE_GAMES
from tournaments.models import Match, Player, Season, Table
from tournaments.sheets import cells, check, template

from .sheet_history import add_players, history, sheet_rows

pytestmark = pytest.mark.django_db

CELLS = ["", " ", "x", "-1", "0", "²", "--5", "１２", "1e309", "nan", "2023-02-30", "2023-13-01",
         "=SUM(A1)", "x" * 300, "0x10", "♠A", "/", ",", "JK", "SA", "S2 S3", "SA/SA", "yes",
         "Aki Ito", "Ben Mori", "99999999999999999999", "3.5", "a\nb", "jokers=--1", "jokers=²",
         "gambling=maybe", "Table 3", "3", "03", "9" * 5000, "jokers=" + "1" * 5000]  # fmt: skip


def test_unreadable_files_are_refused_with_the_row_or_the_file_named(club):
    workbook = template.to_xlsx([["Date", "Table"], ["2024-01-01", "1"]])

    def workbook_with(part: str, change) -> bytes:
        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(workbook)) as z, zipfile.ZipFile(out, "w") as w:
            for name in z.namelist():
                w.writestr(name, change(z.read(name)) if name == part else z.read(name))
        return out.getvalue()

    cases = {
        b"Date,Table\n2024-01-01,1\n" + b"x" * 200_000 + b"\n": (
            "wrong_type",
            "row 3",
        ),  # a cell too long for CSV
        b"Date,Table\n2024-01-01,\x00\n": ("wrong_type", "row 2"),  # not text
        workbook_with("xl/worksheets/sheet1.xml", lambda b: b[: len(b) // 2]): (
            "wrong_type",
            "file",
        ),  # cut short
        workbook_with("xl/workbook.xml", lambda b: b"garbage"): ("wrong_type", "file"),
    }
    for data, (code, path) in cases.items():
        with pytest.raises(Rejection) as refused:
            check.check(club, data)
        assert [(e["code"], e["path"]) for e in refused.value.errors] == [(code, path)]
        assert refused.value.errors[0]["message"]


def test_a_workbook_claiming_a_million_columns_is_read_as_the_cells_it_has():
    workbook = template.to_xlsx([["Date", "Table"], ["2024-01-01", "1"]])
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(workbook)) as z, zipfile.ZipFile(out, "w") as w:
        for name in z.namelist():
            part = z.read(name)
            if name == "xl/worksheets/sheet1.xml":
                part = part.replace(b'ref="A1:B2"', b'ref="A1:XFD1048576"')
            w.writestr(name, part)
    rows = cells.read(out.getvalue())
    assert rows.header == ["Date", "Table"] and rows.rows == [(2, ["2024-01-01", "1"])]


def test_excels_unicode_text_utf16_and_tab_separated_is_read(club):
    add_players(club)
    rows = sheet_rows("bhabhi", history("bhabhi", nights=1))
    table = template.as_table("bhabhi", rows, "ja")
    text = "\r\n".join("\t".join(row) for row in table) + "\r\n"
    preview = check.check(
        club, text.encode("utf-16")
    )  # with its byte-order mark, as Excel saves it
    assert preview.valid, preview.errors[:3]
    assert preview.counts()["deals"] == len(rows)


def test_names_too_long_to_store_and_targets_out_of_range_are_mistakes_at_their_cells(club):
    add_players(club)
    matches = history("packing", nights=1)
    rows = sheet_rows("packing", matches)
    rows[0]["table"] = "T" * 61
    rows[1]["season"] = "S" * 201
    rows[2]["player_1"] = "N" * 101
    targeted = len(matches[0].deals)  # the second match's first row
    rows[targeted]["target"] = "99999999999"
    rows[targeted + 1]["table"] = "7" * 5000  # more digits than Python reads: a name, too long
    data = template.to_csv(template.as_table("packing", rows))
    preview = check.check(club, data, {"N" * 101: check.NEW})
    found = {(e["row"], e["path"].partition(".")[2], e["code"]) for e in preview.errors}
    assert {
        (2, "table", "out_of_range"),
        (3, "season", "out_of_range"),
        (4, "player_1", "out_of_range"),
        (targeted + 2, "target", "out_of_range"),
        (targeted + 3, "table", "out_of_range"),
    } <= found
    assert all(e["message"] for e in preview.errors)
    with pytest.raises(Rejection):
        imports.import_sheet(club, data, {"N" * 101: check.NEW})
    assert not Match.objects.exists() and not Season.objects.exists()


def test_a_bare_table_number_and_its_app_name_are_one_table(club):
    add_players(club)
    matches = history("comp13", nights=1)
    rows = sheet_rows("comp13", matches)
    for i, row in enumerate(rows):  # every other row says "Table N" for the sheet's "N"
        row["table"] = f"Table {row['table']}" if i % 2 else row["table"]
    done = imports.import_sheet(club, template.to_csv(template.as_table("comp13", rows)))
    assert done.preview.counts()["matches"] == len(matches)
    assert sorted(Table.objects.values_list("name", flat=True)) == sorted(
        f"Table {m.table}" for m in matches
    )


@pytest.mark.parametrize("game", sorted(LEAGUE_GAMES))
def test_cells_broken_anywhere_get_mistakes_never_an_exception(game, club):
    """Seeded: any cell (headings too) replaced by what people type, or by another cell's
    value; a sheet that still checks imports (new names as new players) without a
    database error."""
    add_players(club)
    rows = sheet_rows(game, history(game, nights=1, most=2))
    table = template.as_table(game, rows, "en")
    rng = random.Random(game)
    for _ in range(40):
        broken = [list(r) for r in table]
        for _ in range(rng.choice((1, 1, 2, 4))):
            r = rng.randrange(len(broken))
            broken[r][rng.randrange(len(broken[r]))] = rng.choice(
                CELLS + [c for row in table[1:] for c in row]
            )
        data = template.to_csv(broken) if rng.random() < 0.5 else template.to_xlsx(broken)
        preview = check.check(club, data)
        answers = {name: check.NEW for name in preview.unknown}
        preview = check.check(club, data, answers)
        assert all(e["message"] and e["row"] >= 1 and e["code"] for e in preview.errors)
        if preview.valid:
            players = Player.objects.count()
            done = imports.import_sheet(club, data, answers)
            assert Player.objects.count() == players + done.preview.counts()["players"]
