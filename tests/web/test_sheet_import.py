"""Score sheets from the pages, the API and the command: the same checks, all or nothing,
once however often the file is sent; templates in both languages; administrators only."""

from __future__ import annotations

import json
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db.models import Sum
from django.test import Client
from rest_framework.test import APIClient

from tests.markup import words
from tournaments.models import Deal, DealScore, Player, SheetUpload
from tournaments.sheets import template

from ..tournaments.sheet_history import add_players, history, sheet_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def members(club):
    return add_players(club)


def napoleon_sheet(misspell: bool = False, language: str = "en") -> bytes:
    rows = sheet_rows("napoleon", history("napoleon", nights=1))
    if misspell:
        for row in rows:
            row["player_1"] = row["player_1"].replace("Aki Ito", "Akki Ito")
    return template.to_csv(template.as_table("napoleon", rows, language))


def deals(club) -> int:
    return Deal.objects.filter(match__table__club_night__season__club=club).count()


def test_templates_download_in_both_languages(client):
    en = client.get("/sheets/template-packing-en.csv")
    assert en.status_code == 200 and en["Content-Type"].startswith("text/csv")
    assert en.content.decode("utf-8-sig").startswith("Season,Date,Table,Game")
    ja = client.get("/sheets/template-packing-ja.xlsx")
    assert ja.status_code == 200 and ja.content.startswith(b"PK")
    assert client.get("/sheets/template-chess-en.csv").status_code == 404


def test_upload_preview_answer_and_confirm_on_the_pages(club, club_admin, members):
    page = Client(HTTP_ACCEPT_LANGUAGE="ja")
    page.force_login(club_admin)
    assert page.get(f"/clubs/{club.slug}/import/").status_code == 200
    upload = SimpleUploadedFile("history.csv", napoleon_sheet(misspell=True), "text/csv")
    sent = page.post(f"/clubs/{club.slug}/import/", {"sheet": upload})
    kept = SheetUpload.objects.get(club=club)
    assert sent.status_code == 302 and sent["Location"].endswith(f"/import/{kept.pk}/")
    preview = page.get(sent["Location"])
    text = preview.content.decode()
    assert "Akki Ito" in text and "クラブのプレイヤーではありません" in text  # by row, in Japanese
    assert 'name="import"' not in text  # no confirmation while a name is unanswered
    assert deals(club) == 0
    answered = {"name-1": "Akki Ito", "who-1": "aki"}
    again = page.post(sent["Location"], {**answered, "check": "1"})
    assert 'name="import"' in again.content.decode()
    done = page.post(sent["Location"], {**answered, "import": "1"})
    assert done.status_code == 302
    count = deals(club)
    assert count > 0
    assert not Player.objects.filter(display_name="Akki Ito").exists()
    kept.refresh_from_db()
    assert kept.imported_at is not None
    # The Back button and a second press: nothing more.
    page.post(sent["Location"], {**answered, "import": "1"})
    assert deals(club) == count


def test_only_the_clubs_administrators_import(club, scorer, members):
    page = Client()
    page.force_login(scorer)
    assert page.get(f"/clubs/{club.slug}/import/").status_code == 403
    api = APIClient()
    api.force_authenticate(scorer)
    sent = api.post(
        f"/api/clubs/{club.slug}/score-sheets/",
        {"file": SimpleUploadedFile("s.csv", napoleon_sheet())},
        format="multipart",
    )
    assert sent.status_code == 403
    assert deals(club) == 0


def test_the_api_checks_imports_and_answers_once(club, club_admin, members):
    api = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    api.force_authenticate(club_admin)
    url = f"/api/clubs/{club.slug}/score-sheets/"

    def send(data: bytes, **fields):
        return api.post(
            url, {"file": SimpleUploadedFile("s.csv", data), **fields}, format="multipart"
        )

    refused = send(napoleon_sheet(misspell=True))
    assert refused.status_code == 400
    first = refused.json()["errors"][0]
    assert (first["row"], first["column"], first["code"]) == (2, "Player 1", "unknown_player")
    assert refused.json()["unknown_players"][0]["suggestions"][0] == "aki"
    assert deals(club) == 0
    dry = send(
        napoleon_sheet(misspell=True), players=json.dumps({"Akki Ito": "aki"}), dry_run="true"
    )
    assert dry.status_code == 200 and dry.json()["counts"]["deals"] > 0
    assert deals(club) == 0
    made = send(napoleon_sheet(misspell=True), players=json.dumps({"Akki Ito": "aki"}))
    assert made.status_code == 201
    count = deals(club)
    assert count == made.json()["counts"]["deals"]
    repeat = send(napoleon_sheet(misspell=True), players=json.dumps({"Akki Ito": "aki"}))
    assert repeat.status_code == 200 and repeat.json()["counts"]["deals"] == 0
    assert deals(club) == count
    assert send(b"\x00\xff\xfe garbage").status_code == 400
    assert send(napoleon_sheet(), players="{not json").status_code == 400
    assert send(napoleon_sheet(), players='{"a": ' + "1" * 5000 + "}").status_code == 400


def test_the_command_has_a_dry_run_and_imports_each_file_once(club, members, tmp_path, capsys):
    good = tmp_path / "good.csv"
    good.write_bytes(napoleon_sheet(language="ja"))
    bad = tmp_path / "bad.csv"
    bad.write_bytes(napoleon_sheet(misspell=True))
    call_command("import_sheets", str(good), "--club", club.slug, "--dry-run")
    assert "would add" in capsys.readouterr().out and deals(club) == 0
    with pytest.raises(CommandError):
        call_command("import_sheets", str(good), str(bad), "--club", club.slug)
    err = capsys.readouterr().err
    assert "row 2, Player 1: Akki Ito is not a player of the club" in err
    count = deals(club)
    assert count > 0  # the good file, on its own
    call_command("import_sheets", str(bad), "--club", club.slug, "--player", "Akki Ito=aki")
    assert deals(club) == count  # the same rows, imported before
    # Made a new player instead, the same rows would differ from those imported: refused.
    with pytest.raises(CommandError):
        call_command("import_sheets", str(bad), "--club", club.slug, "--new-players")
    assert "imported before with other values" in capsys.readouterr().err
    assert deals(club) == count and not Player.objects.filter(display_name="Akki Ito").exists()


def test_a_file_uploaded_again_keeps_the_answers_and_the_deal_count_stays(
    club, club_admin, members
):
    """Issue 29, 10: the administrator answers who "Akki Ito" is, finds another mistake,
    corrects the file and uploads it again: the answer is kept, and the number of deals
    the preview announces is the file's, the same before and after the corrections."""
    page = Client()
    page.force_login(club_admin)
    rows = sheet_rows("napoleon", history("napoleon", nights=1))
    for row in rows:
        row["player_1"] = row["player_1"].replace("Aki Ito", "Akki Ito")
    broken = [dict(r) for r in rows]
    broken[1]["count"] = "99"  # a count no declarer can bid
    csv = template.to_csv(template.as_table("napoleon", broken))
    sent = page.post(
        f"/clubs/{club.slug}/import/", {"sheet": SimpleUploadedFile("a.csv", csv, "text/csv")}
    )
    page.post(sent["Location"], {"name-1": "Akki Ito", "who-1": "aki", "check": "1"})
    first = page.get(sent["Location"]).content.decode()
    assert f"{len(rows)} deals" in first and "are without a mistake so far" in first
    assert mistakes_said(first) == mistakes_listed(first) > 0  # counted, not "0 mistakes"
    fixed = template.to_csv(template.as_table("napoleon", rows))
    again = page.post(
        f"/clubs/{club.slug}/import/", {"sheet": SimpleUploadedFile("b.csv", fixed, "text/csv")}
    )
    second = page.get(again["Location"]).content.decode()
    assert f"{len(rows)} deals" in second and "are without a mistake so far" not in second
    assert 'name="import"' in second  # the answer came along: nothing left to answer
    assert page.post(again["Location"], {"name-1": "Akki Ito", "who-1": "aki", "import": "1"})
    assert deals(club) == len(rows)


def mistakes_said(page: str) -> int:
    """The number the preview's heading gives its mistakes (in English)."""
    found = re.search(r'<h2 id="mistakes">\s*(\d+) mistakes?', page)
    return int(found.group(1)) if found else 0


def mistakes_listed(page: str) -> int:
    table = re.search(r'<table class="mistakes">(.*?)</table>', page, re.S)
    return table.group(1).count("<tr>") - 1 if table else 0


def test_a_second_file_adds_no_night_the_club_holds_and_names_tables_in_japanese(
    club, club_admin, members
):
    """A file whose matches are on nights the club holds already adds matches to them: the
    preview says so (no new club night for them), its tables named as the draw names
    them in the reader's language; a season's name a slip away from the club's is asked
    about before a new season is made of it."""
    page = Client(HTTP_ACCEPT_LANGUAGE="ja")
    page.force_login(club_admin)
    rows = sheet_rows("napoleon", history("napoleon", nights=1))
    nights = {(r["season"], r["date"]) for r in rows}
    first = [
        r
        for r in rows
        if (r["season"], r["date"], r["table"])
        == (rows[0]["season"], rows[0]["date"], rows[0]["table"])
    ]
    assert 0 < len(first) < len(rows)

    def uploaded(name: str, some: list[dict]) -> str:
        csv = template.to_csv(template.as_table("napoleon", some))
        sent = page.post(f"/clubs/{club.slug}/import/", {"sheet": SimpleUploadedFile(name, csv)})
        return sent["Location"]

    page.post(uploaded("first.csv", first), {"import": "1"})
    assert deals(club) == len(first)
    text = page.get(uploaded("all.csv", rows)).content.decode()
    assert f"{len(nights) - 1} 回の例会" in text  # the first file's night is held
    assert "卓 " in text and "Table " not in text
    slip = [{**r, "season": r["season"].replace("Spring", "Sprng")} for r in rows]
    text = page.get(uploaded("slip.csv", slip)).content.decode()
    assert f"クラブのシーズン「{rows[0]['season']}」のことですか" in text  # a slip, asked


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_example_is_a_file_of_its_own_that_imports(club, club_admin, language):
    """The import page links each game's example as a CSV (the XLSX template's second
    sheet): its rows are a sheet that imports as it is, once its players are the club's."""
    page = Client()
    page.force_login(club_admin)
    page.cookies["django_language"] = language
    shown = page.get(f"/clubs/{club.slug}/import/").content.decode()
    link = f"/sheets/template-napoleon-{language}-example.csv"
    assert f'href="{link}"' in shown
    answer = page.get(link)
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")
    assert f"napoleon-{language}-example.csv" in answer["Content-Disposition"]
    rows = answer.content.decode("utf-8-sig").splitlines()
    assert len(rows) == 1 + 4  # the headings and four deals
    assert rows[1:] == [
        ",".join(r)
        for r in template.as_table(
            "napoleon", template.example_rows("napoleon", language), language
        )[1:]
    ]
    for i, name in enumerate(template.EXAMPLE_NAMES[language][:5]):
        Player.objects.create(club=club, handle=f"x{i}", display_name=name)
    sent = page.post(
        f"/clubs/{club.slug}/import/", {"sheet": SimpleUploadedFile("e.csv", answer.content)}
    )
    preview = words(page.get(sent["Location"]).content.decode())
    done = page.post(sent["Location"], {"import": "1"})
    assert done.status_code == 302 and deals(club) == 4
    # The preview said each player's points over the match, as the paper sums them.
    scores = DealScore.objects.filter(deal__match__table__club_night__season__club=club)
    totals = scores.values("player__display_name").annotate(total=Sum("score"))
    shown = ", ".join(
        f"{t['player__display_name']} {t['total']:+d}"
        for t in sorted(totals, key=lambda t: t["player__display_name"])
    )
    assert all(f"{t['player__display_name']} {t['total']:+d}" in preview for t in totals), shown
    season = Deal.objects.filter(match__table__club_night__season__club=club).first()
    season_id = season.match.table.club_night.season_id
    assert done["Location"] == f"/seasons/{season_id}/"  # to the one season it wrote to
    xlsx = page.get(f"/sheets/template-napoleon-{language}-example.xlsx")
    assert xlsx.status_code == 200 and xlsx.content.startswith(b"PK")
    assert page.get("/sheets/template-napoleon-en-sample.csv").status_code == 404
