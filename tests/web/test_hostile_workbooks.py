"""Hostile workbooks cost nothing (issue 28, 2): a zip bomb, a workbook of a million
texts, a cell at row two billion are refused at the upload, before anything parses them,
with their reason in the reader's language; nothing is kept.  Imported files are let go;
files never imported are deleted after the retention docs/import.md states."""

from __future__ import annotations

import datetime as dt
import io
import zipfile

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from actions import uploads
from tournaments.models import SheetUpload

pytestmark = pytest.mark.django_db


def workbook(**parts: bytes) -> bytes:
    """A real workbook (openpyxl's) with some of its parts replaced."""
    book = openpyxl.Workbook()
    book.active.append(["Season", "Date", "Table", "Game"])
    plain = io.BytesIO()
    book.save(plain)
    out = io.BytesIO()
    with (
        zipfile.ZipFile(plain) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target,
    ):
        names = source.namelist()
        for name in names:
            target.writestr(name, parts.get(name, source.read(name)))
        for name, data in parts.items():
            if name not in names:
                target.writestr(name, data)
    return out.getvalue()


def shared(texts) -> bytes:
    items = b"".join(b"<si><t>" + t + b"</t></si>" for t in texts)
    return (
        b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        + items
        + b"</sst>"
    )


SHEET = "xl/worksheets/sheet1.xml"


def far_row(number: bytes) -> bytes:
    """A worksheet whose second row says it is at ``number`` (the attribute as written):
    openpyxl would make one empty row for every row skipped."""
    return (
        b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
        b'<row r="1"><c r="A1" t="inlineStr"><is><t>Season</t></is></c></row>'
        b"<row " + number + b'><c t="inlineStr"><is><t>x</t></is></c></row>'
        b"</sheetData></worksheet>"
    )


HOSTILE = {
    "a zip bomb of one text repeated": (
        workbook(**{"xl/sharedStrings.xml": shared(b"x" for _ in range(2_000_000))}),
        "unpacks to far more",
        "展開すると",
    ),
    "three hundred thousand texts": (
        workbook(
            **{
                "xl/sharedStrings.xml": shared(
                    str(i * 7919 % 1000003).encode() for i in range(300_000)
                )
            }
        ),
        "more than 200000 different texts",
        "200000",
    ),
    "a cell at row two billion": (
        workbook(
            **{
                SHEET: b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
                b'<row r="1"><c r="A1" t="inlineStr"><is><t>Season</t></is></c></row>'
                b'<row r="2000000000"><c r="A2000000000" t="inlineStr"><is><t>x</t></is></c></row>'
                b"</sheetData></worksheet>"
            }
        ),
        "beyond row 1048576",
        "1048576",
    ),
    # openpyxl reads a row's number however it is quoted or spaced, and as a float.
    **{
        f"a row at {number.decode()}": (
            workbook(**{SHEET: far_row(number)}),
            "beyond row 1048576",
            "1048576",
        )
        for number in (b"r='100000000'", b'r = "100000000"', b'r="5e6"', b'r="1e999"')
    },
    # The workbook's list of parts may name its texts' part anything.
    "three hundred thousand texts in a part of another name": (
        workbook(
            **{"xl/strs.xml": shared(str(i * 7919 % 1000003).encode() for i in range(300_000))}
        ),
        "more than 200000 different texts",
        "200000",
    ),
}


@pytest.fixture
def no_parsing(monkeypatch):
    """openpyxl must not be asked to read a refused file at all."""

    def refuse(*args, **kwargs):
        raise AssertionError("the workbook was parsed")

    monkeypatch.setattr(openpyxl, "load_workbook", refuse)


@pytest.mark.parametrize("kind", HOSTILE, ids=list(HOSTILE))
def test_a_hostile_workbook_is_refused_at_the_upload_and_not_kept(
    kind, club, club_admin, no_parsing
):
    data, english, japanese = HOSTILE[kind]
    assert len(data) < 2 * 1024 * 1024
    for language, words in (("en", english), ("ja", japanese)):
        page = Client(HTTP_ACCEPT_LANGUAGE=language)
        page.force_login(club_admin)
        sent = page.post(
            f"/clubs/{club.slug}/import/", {"sheet": SimpleUploadedFile("x.xlsx", data)}
        )
        assert sent.status_code == 400 and words in sent.content.decode(), language
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(club_admin)
    answer = api.post(
        f"/api/clubs/{club.slug}/score-sheets/",
        {"file": SimpleUploadedFile("x.xlsx", data)},
        format="multipart",
    )
    assert answer.status_code == 400 and answer.json()["errors"][0]["code"] == "too_large"
    assert not SheetUpload.objects.exists()


def test_uploads_are_let_go_once_imported_and_deleted_when_forgotten(club, club_admin):
    old = SheetUpload.objects.create(club=club, name="old.csv", data=b"a,b\n")
    SheetUpload.objects.filter(pk=old.pk).update(
        uploaded_at=timezone.now() - dt.timedelta(days=uploads.KEEP_UPLOADS_DAYS + 1)
    )
    done = SheetUpload.objects.create(
        club=club, name="done.csv", data=b"a,b\n", imported_at=timezone.now()
    )
    recent = SheetUpload.objects.create(club=club, name="new.csv", data=b"a,b\n")
    assert uploads.forget_old_uploads(club) == 1
    assert not SheetUpload.objects.filter(pk=old.pk).exists()
    assert bytes(SheetUpload.objects.get(pk=done.pk).data) == b""
    assert bytes(SheetUpload.objects.get(pk=recent.pk).data) == b"a,b\n"


def test_the_checked_preview_is_kept_not_read_again_on_every_view(club, club_admin, monkeypatch):
    from tests.tournaments.sheet_history import add_players
    from tests.web.test_sheet_import import napoleon_sheet
    from tournaments.sheets import check

    add_players(club)

    page = Client()
    page.force_login(club_admin)
    sent = page.post(
        f"/clubs/{club.slug}/import/",
        {"sheet": SimpleUploadedFile("h.csv", napoleon_sheet(misspell=True))},
    )
    first = page.get(sent["Location"]).content.decode()
    assert "Akki Ito" in first

    def reread(*args, **kwargs):
        raise AssertionError("the file was read again")

    monkeypatch.setattr(check, "check", reread)
    again = page.get(sent["Location"])
    assert again.status_code == 200 and "Akki Ito" in again.content.decode()


def _unknown_compression(data: bytes, part: str) -> bytes:
    """``data`` with ``part`` marked as packed by compression method 99 (none exists):
    both its local header (offset 8) and its central directory entry (offset 10)."""
    out = bytearray(data)
    name = part.encode()
    for signature, at in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):
        start = 0
        while (start := out.find(signature, start)) != -1:
            header = 30 if signature == b"PK\x03\x04" else 46
            if out[start + header : start + header + len(name)] == name:
                out[start + at : start + at + 2] = (99).to_bytes(2, "little")
            start += 4
    return bytes(out)


@pytest.mark.parametrize(
    "damage",
    ["a part packed by a method no reader knows", "the archive cut short", "a part's checksum"],
)
def test_a_damaged_workbook_is_refused_as_unreadable_never_a_crash(damage, no_parsing):
    """Each zip failure ``cells.guard`` catches is a refusal saying the file cannot be read
    (``wrong_type``), never a server error."""
    from tournaments.errors import Rejection
    from tournaments.sheets import cells

    good = workbook(**{"xl/sharedStrings.xml": shared([b"Season", b"Date"])})
    if damage.startswith("a part packed"):
        data = _unknown_compression(good, "xl/sharedStrings.xml")
    elif damage.startswith("the archive"):
        data = good[: len(good) // 2]
    else:  # a byte of the packed text changed: the part's CRC no longer matches
        at = good.find(b"xl/sharedStrings.xml") + len("xl/sharedStrings.xml") + 4
        data = good[:at] + bytes([good[at] ^ 0xFF]) + good[at + 1 :]
    with pytest.raises(Rejection) as refused:
        cells.guard(data)
    assert refused.value.errors[0]["code"] == "wrong_type", damage


def test_a_csv_file_is_read_no_further_than_the_last_row_and_the_last_column():
    """A CSV file of blank lines, or of one line of commas, is cut where a workbook would
    be: no row beyond row 1,048,576 (refused), no cell beyond the 500th (not read)."""
    from tournaments.errors import Rejection
    from tournaments.sheets import cells

    blank = b"Season,Date\n" + b"\n" * cells.MAX_SHEET_ROW + b"x,y\n"
    with pytest.raises(Rejection) as refused:
        cells.read(blank)
    assert "beyond row 1048576" in refused.value.errors[0]["message"]
    wide = cells.read(b"Season,Date\nx" + b"," * 200_000 + b"\n")
    assert len(wide.rows[0][1]) == cells.MAX_COLUMNS


def test_a_club_keeps_its_last_three_uploads_waiting_no_more(club, club_admin):
    page = Client()
    page.force_login(club_admin)
    for n in range(5):
        sent = page.post(
            f"/clubs/{club.slug}/import/",
            {"sheet": SimpleUploadedFile(f"s{n}.csv", b"Season,Date\nx,2026-01-01\n")},
        )
        assert sent.status_code == 302
    kept = SheetUpload.objects.filter(club=club).order_by("uploaded_at", "pk")
    assert [u.name for u in kept] == ["s2.csv", "s3.csv", "s4.csv"]
    assert uploads.KEEP_UPLOADS_WAITING == 3
    assert page.get(f"/clubs/{club.slug}/import/{kept[0].pk}/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_file_is_read_before_the_clubs_lock_is_taken(club, club_admin, monkeypatch):
    """Reading a large file takes seconds: it is done before the import's transaction,
    which holds the club's lock (the page's confirmation and the API's import alike)."""
    from django.db import connection

    from tests.tournaments.sheet_history import add_players
    from tests.web.test_sheet_import import napoleon_sheet
    from tournaments.sheets import cells

    add_players(club)
    read, in_transaction = cells.read, []

    def watched(data):
        in_transaction.append(connection.in_atomic_block)
        return read(data)

    monkeypatch.setattr(cells, "read", watched)
    page = Client()
    page.force_login(club_admin)
    sent = page.post(
        f"/clubs/{club.slug}/import/", {"sheet": SimpleUploadedFile("h.csv", napoleon_sheet())}
    )
    in_transaction.clear()  # the preview's read is no import
    assert page.post(sent["Location"], {"import": "1"}).status_code == 302
    api = APIClient()
    api.force_authenticate(club_admin)
    answer = api.post(
        f"/api/clubs/{club.slug}/score-sheets/",
        {"file": SimpleUploadedFile("h.csv", napoleon_sheet())},
        format="multipart",
    )
    assert answer.status_code in (200, 201), answer.content
    assert in_transaction == [False, False]
