"""A game registered in a test-only module (``toy_game``) appears in the entry form,
the score sheet, every export and the blank sheet, with no other file changed."""

import datetime as dt
import io
import shutil
import subprocess

import pytest
from openpyxl import load_workbook

import engine
from scoring.exports import EXPORTERS
from tests.web.toy_game import Toy, ToyLeague
from tournaments import actions
from tournaments.games import LEAGUE_GAMES
from tournaments.models import ClubNight, Season, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def toy_match(monkeypatch, club, players, scorer):
    monkeypatch.setitem(engine.GAMES, "toy", Toy())
    monkeypatch.setitem(LEAGUE_GAMES, "toy", ToyLeague())
    season = Season.objects.create(club=club, name="Toy season", games=["toy"], public=True)
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 21), venue="Hall")
    table = Table.objects.create(club_night=night, name="Toy table", scorer=scorer)
    seated = [players[h] for h in sorted(players)[:3]]
    return actions.create_match(table, "toy", seated)


def pdf_text(body: bytes) -> str:
    assert body.startswith(b"%PDF")
    if shutil.which("pdftotext") is None:  # make test installs poppler-utils
        pytest.fail("pdftotext (poppler-utils) is missing")
    done = subprocess.run(["pdftotext", "-layout", "-", "-"], input=body, capture_output=True)
    return done.stdout.decode()


def test_the_toy_game_is_entered_shown_and_exported(client, toy_match, scorer):
    client.force_login(scorer)
    seated = toy_match.seated_players()
    page = client.get(f"/matches/{toy_match.pk}/enter/").content.decode()
    assert "トイ Toy" in page and "Toy winner" in page and "Who won the toy deal." in page
    assert 'name="toy_winner"' in page

    refused = client.post(f"/matches/{toy_match.pk}/enter/", {"toy_winner": "nobody", "number": 1})
    assert refused.status_code == 200 and toy_match.deals.count() == 0

    saved = client.post(
        f"/matches/{toy_match.pk}/enter/", {"toy_winner": seated[1].handle, "number": 1}
    )
    assert saved.status_code == 302 and toy_match.deals.count() == 1
    sheet = client.get(f"/matches/{toy_match.pk}/").content.decode()
    assert f"toy won by {seated[1].handle}" in sheet and "toy tie-break: most points" in sheet
    for exporter in EXPORTERS.values():
        assert f"sheet.{exporter.extension}" in sheet  # every format is offered

    csv = client.get(f"/matches/{toy_match.pk}/sheet.csv").getvalue().decode("utf-8-sig")
    assert f"toy won by {seated[1].handle}" in csv
    assert csv.splitlines()[1].split(",")[1:4] == ["-1", "2", "-1"]

    book = load_workbook(io.BytesIO(client.get(f"/matches/{toy_match.pk}/sheet.xlsx").getvalue()))
    cells = [c for row in book.active.iter_rows(values_only=True) for c in row]
    assert "Tie-break: toy tie-break: most points" in cells and 2 in cells

    text = pdf_text(client.get(f"/matches/{toy_match.pk}/sheet.pdf").getvalue())
    assert "toy won by" in text and seated[0].display_name in text


def test_the_toy_game_has_a_blank_paper_sheet_of_its_own_size(client, toy_match):
    response = client.get("/sheets/blank-toy.pdf")
    assert response.status_code == 200
    text = pdf_text(response.content)
    assert "Clubscore" in text and "Toy" in text  # the game's name, not its code
    assert "Player 3" in text and "Player 4" not in text  # the engine's best_players


def test_without_its_modules_the_game_is_unknown(client, db):
    assert client.get("/sheets/blank-toy.pdf").status_code == 404
