"""Documents that are safe and readable: every PDF embeds its fonts, exports are data
and never code, and the standings export names games as the page does."""

from __future__ import annotations

import csv
import io
import shutil
import subprocess

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from openpyxl import load_workbook

from scoring import pdf as printed
from scoring.documents import Document
from tests import worlds
from tournaments.models import ClubNight, Match, Player, Season

pytestmark = pytest.mark.django_db
EVIL = '=HYPERLINK("http://example.invalid/x","x")'


@pytest.fixture
def demo():
    worlds.demo()
    call_command("rebuild_standings")  # the workers' part: this test runs no commit hooks
    return Season.objects.get(name="Autumn League 2026")


def fonts(pdf: bytes, tmp_path) -> list[list[str]]:
    if not shutil.which("pdffonts"):
        pytest.fail("pdffonts (Debian's poppler-utils) is needed; make test installs it")
    path = tmp_path / "doc.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
    return [line.split() for line in out.splitlines()[2:]]


def pdfs(client, season):
    match = Match.objects.filter(game="rettler").earliest("pk")
    yield "match sheet", client.get(f"/matches/{match.pk}/sheet.pdf").getvalue()
    yield "standings", client.get(f"/seasons/{season.pk}/standings.pdf").getvalue()
    yield "blank sheet", client.get("/sheets/blank-comrade.pdf").getvalue()
    yield "paper sheet", client.get(f"/matches/{match.pk}/paper.pdf").getvalue()
    client.cookies["django_language"] = "ja"
    yield "match sheet in Japanese", client.get(f"/matches/{match.pk}/sheet.pdf").getvalue()
    client.force_login(User.objects.get(username="admin"))  # with the tables' QR codes
    yield "night's paper", client.get(f"/nights/{match.table.club_night_id}/paper.pdf").getvalue()
    client.logout()


def test_every_pdf_embeds_every_font_and_renders(client, demo, tmp_path):
    for kind, pdf in pdfs(client, demo):
        rows = fonts(pdf, tmp_path)
        assert rows, kind
        # pdffonts columns: name type encoding emb sub uni object ID
        assert all(row[-5] == "yes" for row in rows), (kind, rows)
        subprocess.run(
            [
                "pdftoppm",
                "-r",
                "40",
                "-png",
                "-f",
                "1",
                "-l",
                "1",
                str(tmp_path / "doc.pdf"),
                str(tmp_path / "page"),
            ],
            check=True,
        )
        assert (tmp_path / "page-1.png").stat().st_size > 1000, kind


def test_a_name_that_looks_like_a_formula_stays_text(client, demo):
    Player.objects.filter(handle="aki").update(display_name=EVIL)
    match = Match.objects.filter(game="rettler").earliest("pk")
    call_command("rebuild_standings")
    text = client.get(f"/seasons/{demo.pk}/standings.csv").getvalue().decode("utf-8-sig")
    cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
    assert "'" + EVIL in cells and EVIL not in cells
    sheet_csv = client.get(f"/matches/{match.pk}/sheet.csv").getvalue().decode("utf-8-sig")
    assert next(csv.reader(io.StringIO(sheet_csv)))[1] == "'" + EVIL
    for url in (f"/seasons/{demo.pk}/standings.xlsx", f"/matches/{match.pk}/sheet.xlsx"):
        book = load_workbook(io.BytesIO(client.get(url).getvalue()))
        found = [c for row in book.active.iter_rows() for c in row if c.value == EVIL]
        assert found and all(c.data_type == "s" for c in found), url
        numbers = [c for row in book.active.iter_rows() for c in row if isinstance(c.value, int)]
        assert numbers and all(c.data_type == "n" for c in numbers)  # numbers stay numbers


def test_the_standings_export_names_games_as_the_page_with_ratings_club_season_and_date(
    client, demo
):
    text = client.get(f"/seasons/{demo.pk}/standings.csv").getvalue().decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == [
        "Game",
        "Rank",
        "Player",
        "Points",
        "Deals",
        "Deals won",
        "Matches",
        "Matches won",
        "Rating",
        "Club",
        "Season",
    ]
    games = list(dict.fromkeys(r[0] for r in rows[1:]))
    assert games[:2] == ["Rettler", "Napoleon"]  # the season's order, one name each
    assert "comp13" not in text and "Comp-13" in games and "コンプ" not in text
    assert all(r[9] == "Kanda Card Club" and r[10] == "Autumn League 2026" for r in rows[1:])
    assert any(r[8] for r in rows[1:] if r[0] == "Rettler")
    book = load_workbook(io.BytesIO(client.get(f"/seasons/{demo.pk}/standings.xlsx").getvalue()))
    assert any(
        str(c.value).startswith("Exported on ") for row in book.active.iter_rows() for c in row
    )


MARKUP = {
    "venue": '<img src="/etc/hostname" width="200" height="200"/>',
    "player": "<img src=x onerror=alert(1)>",
    "season": "<b>Autumn</b> & <font size=40>League</font>",
    "table": "<para>Table</para> 1",
}


def pdf_text(pdf: bytes, tmp_path) -> tuple[str, str]:
    """The text pdftotext reads, and pdfimages' list of the images the PDF holds."""
    path = tmp_path / "doc.pdf"
    path.write_bytes(pdf)
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    images = subprocess.run(
        ["pdfimages", "-list", str(path)], capture_output=True, text=True, check=True
    ).stdout
    return text, images


def test_names_in_every_pdf_are_text_never_markup(client, demo, tmp_path):
    """Issue 24, 4: a venue, a player, a season or a table named in ReportLab's markup is
    printed as typed, in every kind of PDF; no file of the server is embedded."""
    from tournaments.models import ClubNight, Table

    ClubNight.objects.update(venue=MARKUP["venue"])
    Player.objects.filter(handle="aki").update(display_name=MARKUP["player"])
    Season.objects.filter(pk=demo.pk).update(name=MARKUP["season"])
    Table.objects.filter(matches__game="rettler").update(name=MARKUP["table"])
    call_command("rebuild_standings")
    demo.refresh_from_db()
    seen = ""
    for kind, pdf in pdfs(client, demo):
        assert pdf.startswith(b"%PDF"), kind  # not a 500 page
        text, images = pdf_text(pdf, tmp_path)
        assert len(images.splitlines()) == 2, (kind, images)  # pdfimages' heading only
        seen += text
    flat = " ".join(seen.split())
    for typed in MARKUP.values():
        assert " ".join(typed.split()) in flat, typed


def words_outside_the_page(pdf: bytes, tmp_path) -> list[str]:
    """The words pdftotext finds beyond the page's right edge (``-bbox``: each word's box)."""
    import re

    path = tmp_path / "fit.pdf"
    path.write_bytes(pdf)
    html = subprocess.run(
        ["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    width = float(re.search(r'<page width="([\d.]+)"', html).group(1))
    boxes = re.findall(
        r'<word xMin="[\d.]+" yMin="[\d.]+" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)</word>', html
    )
    return [word for x_max, word in boxes if float(x_max) > width - 5]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_standings_pdf_stays_inside_a4(client, demo, tmp_path, language):
    """Issue 29, 8: every word on the page, long game and season names wrapped."""
    Season.objects.filter(pk=demo.pk).update(
        name="Autumn League 2026 of the Kanda Card Club, Tuesdays and Fridays"
    )
    client.cookies["django_language"] = language
    pdf = client.get(f"/seasons/{demo.pk}/standings.pdf").getvalue()
    assert pdf.startswith(b"%PDF")
    assert words_outside_the_page(pdf, tmp_path) == []


def pages_text(pdf: bytes) -> list[str]:
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    return text.split("\f")[:-1]


def test_the_nights_paper_is_a_page_a_table_with_its_deal_numbers(client, demo):
    """Issue 43, 5: the table list, then one page per table in its own orientation (a
    wide sheet landscape), every deal number printed: 3 tables, 4 pages."""
    night = ClubNight.objects.filter(tables__isnull=False).distinct().earliest("date")
    client.force_login(User.objects.get(username="admin"))
    matches = Match.objects.filter(table__club_night=night).count()
    pages = pages_text(client.get(f"/nights/{night.pk}/paper.pdf").getvalue())
    assert len(pages) == 1 + matches, len(pages)
    for page in pages[1:]:
        numbers = [line.split()[0] for line in page.splitlines() if line.split()[:1] != []]
        rows = [n for n in numbers if n.isdigit()]
        assert rows == [str(n) for n in range(1, len(rows) + 1)] and len(rows) >= 3, page[:200]


def test_a_match_of_four_deals_prints_four_rows_to_write_on(client, demo):
    """A night of 4 deals a match printed Napoleon's 20 blank rows (a newcomer's walk): a
    game with no end of its own prints a row a deal the night set; Comp-13 its 12."""
    client.force_login(User.objects.get(username="admin"))
    napoleon = Match.objects.filter(game="napoleon").earliest("pk")
    comp13 = Match.objects.filter(game="comp13").earliest("pk")
    for match, target, expected in ((napoleon, 4, 4), (napoleon, None, 20), (comp13, 12, 12)):
        Match.objects.filter(pk=match.pk).update(target=target)
        (page,) = pages_text(client.get(f"/matches/{match.pk}/paper.pdf").getvalue())
        numbers = [line.split()[0] for line in page.splitlines() if line.split()]
        assert [n for n in numbers if n.isdigit()] == [str(n) for n in range(1, expected + 1)]


def test_a_long_document_says_whose_it_is_on_every_continuation_page():
    rows = [[str(n), f"Player {n}", n] for n in range(1, 121)]
    book = printed.book(
        [
            Document(
                "s", ["Kanda Card Club – Autumn", "Standings"], ["Rank", "Player", "Points"], rows
            ),
            Document(
                "t",
                [
                    "Kanda Card Club – Autumn",
                    "2026-10-31 · Table 1 · Napoleon",
                    "Seats: 1. Aki, 2. Ben",
                ],
                ["Deal", "Aki", "Ben"],
                [],
                blank_rows=60,
            ),
        ]
    )
    pages = pages_text(book)
    assert len(pages) >= 4
    starts = [p.strip().splitlines()[0] for p in pages]
    standings = [s for s in starts if s.startswith("Kanda Card Club – Autumn · Standings")]
    sheet = [s for s in starts if "Table 1 · Napoleon · Seats: 1. Aki, 2. Ben" in s]
    assert len(standings) + len(sheet) == len(pages) - 2  # every page but the two first
    assert standings and sheet
    assert all("Rank" in p and "Player" in p for p in pages[: len(standings) + 1])


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_standings_pdf_has_a_line_a_player_and_whole_headings(client, demo, tmp_path, language):
    client.cookies["django_language"] = language
    table = list(
        csv.reader(
            io.StringIO(
                client.get(f"/seasons/{demo.pk}/standings.csv").getvalue().decode("utf-8-sig")
            )
        )
    )
    pdf = client.get(f"/seasons/{demo.pk}/standings.pdf").getvalue()
    pages = pages_text(pdf)
    assert pages[0].lstrip().startswith("Kanda Card Club – Autumn League 2026")
    text = "\n".join(pages)
    lines = text.splitlines()
    heading = next(line for line in lines if table[0][1] in line and table[0][2] in line)
    for title in table[0][1:9]:  # the game is a table's title; the club and season the page's
        assert all(word in heading.split() for word in title.split()), title
    assert table[0][0] not in heading.split() and table[0][9] not in heading.split()
    games = list(dict.fromkeys(row[0] for row in table[1:]))
    at = [next(i for i, line in enumerate(lines) if line.strip() == game) for game in games]
    assert at == sorted(at)  # a table per game under its name, in the season's order
    for row in table[1:]:  # one line a player under its game: rank, name and rating together
        g = games.index(row[0])
        assert any(
            line.split()[:1] == [row[1]]
            and row[2] in line
            and line.split()[-1] == (row[8] or line.split()[-1])
            for line in lines[at[g] : at[g + 1] if g + 1 < len(at) else len(lines)]
        ), row
    assert all(r[-5] == "yes" for r in fonts(pdf, tmp_path))


def test_a_sheet_to_write_on_gives_every_player_a_column_of_one_width(client, demo, tmp_path):
    import re

    match = Match.objects.filter(game="twentytwo").earliest("pk")
    names = [p.display_name for p in match.seated_players()]
    assert len({len(n) for n in names}) > 1  # names of other lengths: Aki, Chika…
    path = tmp_path / "paper.pdf"
    path.write_bytes(client.get(f"/matches/{match.pk}/paper.pdf").getvalue())
    html = subprocess.run(
        ["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    words = re.findall(r'<word xMin="([\d.]+)"[^>]*>([^<]*)</word>', html)
    heading = words[[w for _x, w in words].index("Deal") :]  # the table's heading row
    starts = [next(float(x) for x, w in heading if w == name) for name in names]
    widths = [b - a for a, b in zip(starts, starts[1:], strict=False)]
    assert max(widths) - min(widths) < 1, widths
