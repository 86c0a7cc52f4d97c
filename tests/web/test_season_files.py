"""A season's heavy downloads (standings and statistics as PDF and XLSX) are made once per
version of what they hold and kept (issue 55, ``scoring.season_files``): a kept file is
the file made afresh; a deal entered or corrected, a player renamed, a season renamed
or re-ranked, a rating or a division changed makes a new one (on PostgreSQL's twins and
the demo's alike); a reader who may not read the season gets 404 whatever is kept; two
languages and a club's own readers and the others are files of their own; a file too
long for a request is made by a worker, once however many readers ask."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.test import Client
from django.utils import timezone, translation
from openpyxl import load_workbook
from reportlab import rl_config

import actions.deals
import actions.matches
from actions import corrections
from dbtools import backend
from scoring import pdf, season_files, season_tables
from scoring.models import Rating, SeasonFile
from scoring.rebuild import rebuild_all
from tests.conftest import EMBEDDED, NAPOLEON_SEATS, member_of, napoleon_deal, run_manage
from tournaments.models import Club, Division, Membership, Placement, Player, Season

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(season, make_match, django_capture_on_commit_callbacks):
    """The ``season`` fixture, public, with a Napoleon match of two deals, totalled."""
    Season.objects.filter(pk=season.pk).update(public=True)
    match = make_match("napoleon", NAPOLEON_SEATS)
    with django_capture_on_commit_callbacks(execute=True):
        actions.deals.enter_deal(match, napoleon_deal()).stored()
        actions.deals.enter_deal(match, napoleon_deal(declarer="ben", adjutant="dai")).stored()
    season.refresh_from_db()
    return season, match


def body(answer) -> bytes:
    assert answer.status_code == 200, answer.status_code
    return b"".join(answer.streaming_content) if answer.streaming else answer.content


def cells(data: bytes) -> list[list[object]]:
    """A workbook's rows after its title lines (the header first)."""
    sheet = load_workbook(io.BytesIO(data), read_only=True).worksheets[0]
    rows = [list(r) for r in sheet.iter_rows(values_only=True)]
    return rows[rows.index([]) + 1 :] if [] in rows else rows[4:]


def table(season: Season) -> list[list[object]]:
    """The statistics as a fresh build has them (header first)."""
    header, rows = season_tables.statistics_table(season)
    return [list(header), *[list(row) for row in rows]]


def test_a_kept_file_is_the_file_made_afresh(played, monkeypatch):
    monkeypatch.setattr(rl_config, "invariant", 1)  # a PDF without its moment of making
    season, _match = played
    url = f"/seasons/{season.pk}/statistics.pdf"
    first = body(Client().get(url))
    kept = SeasonFile.objects.get(season=season)
    assert kept.slot == "statistics.pdf.en.public"
    again = body(Client().get(url))
    assert again == first == bytes(kept.data)
    assert SeasonFile.objects.get(season=season).made_at == kept.made_at  # served, not made
    fresh = pdf.book([season_tables.statistics_document(season, "public")])
    assert again == fresh
    assert fresh.startswith(b"%PDF")


def test_the_kept_workbook_holds_what_the_season_holds_now(played):
    season, _match = played
    url = f"/seasons/{season.pk}/statistics.xlsx"
    body(Client().get(url))
    assert cells(body(Client().get(url))) == table(season)
    assert SeasonFile.objects.filter(season=season).count() == 1


@pytest.mark.parametrize("twins", ["postgresql", "portable"])
def test_a_deal_entered_or_corrected_makes_a_new_file(
    twins, played, django_capture_on_commit_callbacks
):
    season, match = played
    with backend.using(twins):
        with django_capture_on_commit_callbacks(execute=True):
            rebuild_all()
        url = f"/seasons/{season.pk}/statistics.xlsx"
        seen = [body(Client().get(url))]
        assert body(Client().get(url)) == seen[0]  # kept
        with django_capture_on_commit_callbacks(execute=True):
            actions.deals.enter_deal(
                match, napoleon_deal(declarer="chika", adjutant="aki", count=16)
            ).stored()
        seen.append(body(Client().get(url)))
        deal = match.deals.get(number=1)
        with django_capture_on_commit_callbacks(execute=True):
            corrections.correct_deal(deal, napoleon_deal(count=17), None, "count was 17")
        seen.append(body(Client().get(url)))
        for data in seen[1:]:
            assert data != seen[0]
        assert cells(seen[1]) != cells(seen[2])
        assert cells(seen[2]) == table(season)  # the season as it is now
        assert SeasonFile.objects.filter(season=season).count() == 1  # one slot, replaced


def test_a_reader_who_may_not_read_the_season_gets_404_though_a_file_is_kept(
    played, django_user_model
):
    season, _match = played
    Season.objects.filter(pk=season.pk).update(public=False)
    member = member_of(season.club, django_user_model, "reader", Membership.Role.MEMBER)
    rival = Club.objects.create(name="Rivals", slug="rivals")
    outsiders = [
        None,
        django_user_model.objects.create_user("stranger", "s@example.org", "stranger-pass-1"),
        member_of(rival, django_user_model, "rival-admin", Membership.Role.ADMIN),
    ]
    for fmt in ("pdf", "xlsx"):
        for kind in ("standings", "statistics"):
            url = f"/seasons/{season.pk}/{kind}.{fmt}"
            client = Client()
            client.force_login(member)
            body(client.get(url))
            for outsider in outsiders:
                client = Client()
                if outsider is not None:
                    client.force_login(outsider)
                answer = client.get(url)
                assert answer.status_code == 404, (url, outsider)
                assert b"%PDF" not in answer.content and b"PK" not in answer.content[:2]
    assert SeasonFile.objects.filter(season=season).count() == 4
    # A public season made private: the file kept for anonymous readers is theirs no more.
    Season.objects.filter(pk=season.pk).update(public=True)
    body(Client().get(f"/seasons/{season.pk}/statistics.pdf"))
    assert SeasonFile.objects.filter(slot="statistics.pdf.en.public").exists()
    Season.objects.filter(pk=season.pk).update(public=False)
    assert Client().get(f"/seasons/{season.pk}/statistics.pdf").status_code == 404


def test_two_languages_are_two_files(played):
    season, _match = played
    url = f"/seasons/{season.pk}/statistics.xlsx"
    english = body(Client().get(url))
    client = Client()
    client.cookies["django_language"] = "ja"
    japanese = body(client.get(url))
    assert english != japanese
    assert set(SeasonFile.objects.values_list("slot", flat=True)) == {
        "statistics.xlsx.en.public",
        "statistics.xlsx.ja.public",
    }
    with translation.override("ja"):
        assert cells(japanese)[0][0] == str(season_tables.statistics_table(season)[0][0])  # ゲーム
    assert cells(english)[0][0] == "Game"
    assert body(client.get(url)) == japanese and body(Client().get(url)) == english


def test_a_clubs_readers_and_the_others_never_share_a_file(played, django_user_model):
    """The standings hold ratings, of every season for the club's readers and of the
    public seasons for the others (``scope_for``): two files, whatever they hold."""
    season, _match = played
    member = member_of(season.club, django_user_model, "reader", Membership.Role.MEMBER)
    url = f"/seasons/{season.pk}/standings.xlsx"
    client = Client()
    client.force_login(member)
    body(client.get(url))
    body(Client().get(url))
    assert set(SeasonFile.objects.values_list("slot", flat=True)) == {
        "standings.xlsx.en.club",
        "standings.xlsx.en.public",
    }
    # A rating that only the club's readers see changes their file alone.
    club_file = body(client.get(url))
    public_file = body(Client().get(url))
    Rating.objects.filter(scope="club").update(rating=99.5)
    assert body(client.get(url)) != club_file
    assert body(Client().get(url)) == public_file
    assert 99.5 in [c for row in cells(body(client.get(url))) for c in row]


def test_the_version_changes_with_everything_the_file_shows(played):
    season, _match = played

    def now() -> str:
        return season_files.version(season, "standings", "pdf", "public")

    seen = [now()]
    assert now() == seen[0]
    changes = [
        lambda: Player.objects.filter(handle="aki").update(display_name="Akiko"),
        lambda: Season.objects.filter(pk=season.pk).update(name="Spring, renamed"),
        lambda: Club.objects.filter(pk=season.club_id).update(name="Renamed club"),
        lambda: Season.objects.filter(pk=season.pk).update(ranking="per_match"),
        lambda: Rating.objects.filter(scope="public").update(rating=1.25),
        lambda: Placement.objects.create(
            season=season,
            player=Player.objects.get(handle="ben"),
            division=Division.objects.create(season=season, name="Top", order=0),
        ),
        lambda: Division.objects.filter(season=season).update(name="Premier"),
    ]
    for change in changes:
        change()
        seen.append(now())
        assert len(set(seen)) == len(seen), len(seen)
    with translation.override("ja"):
        assert now() != seen[-1]
    assert season_files.version(season, "standings", "xlsx", "public") != seen[-1]
    assert season_files.version(season, "standings", "pdf", "club") != seen[-1]


def test_a_file_too_long_for_a_request_is_made_by_a_worker_once(
    played, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(season_files, "IN_REQUEST_ROWS", 0)
    season, _match = played
    url = f"/seasons/{season.pk}/statistics.pdf"
    client = Client()
    client.cookies["django_language"] = "ja"
    with django_capture_on_commit_callbacks() as handed:
        answers = [Client().get(url) for _ in range(3)]
        assert "ファイルを作成中です" in client.get(url).content.decode()
    assert [a.status_code for a in answers] == [202, 202, 202]
    assert answers[0]["Retry-After"] == "3"
    assert b"The file is being made" in answers[0].content
    assert len(handed) == 2  # one worker per file, however many readers ask
    handed[0]()  # the worker's part (tasks run eagerly in the tests)
    made = body(Client().get(url))
    assert made.startswith(b"%PDF")
    assert body(Client().get(url)) == made
    # A worker that never came: asked again after a while.
    with django_capture_on_commit_callbacks() as handed:
        Player.objects.filter(handle="aki").update(display_name="Akiko")
        assert Client().get(url).status_code == 202
        long_ago = timezone.now() - season_files.STUCK - dt.timedelta(minutes=1)
        SeasonFile.objects.filter(season=season).update(asked_at=long_ago)
        assert Client().get(url).status_code == 202
    assert len(handed) == 2  # the renamed player's file, and again once it was stuck


DEMO_SCRIPT = """
import hashlib
from django.test import Client
from scoring.models import SeasonFile
from actions import corrections
import actions.deals
from tournaments.models import Match, Season, Table

season = Season.objects.filter(public=True).earliest("pk")
url = f"/seasons/{season.pk}/statistics.%s"
def got():
    answer = Client(HTTP_HOST="127.0.0.1").get(url)
    assert answer.status_code == 200, answer.status_code
    return hashlib.sha256(answer.content).hexdigest()
seen = [got()]
seen.append(got())
table = Table.objects.filter(club_night__season=season).latest("pk")
seated = list(Match.objects.filter(game="napoleon", table__club_night__season=season)
              .earliest("pk").seated_players())[:4]
a, b, c, d = [p.handle for p in seated]
record = {"declaration": {"player": a, "count": 15, "trump": "hearts"},
          "adjutant_cards": ["SA"], "adjutants": [c],
          "point_cards": {a: 9, b: 3, c: 7, d: 1}}
match = actions.matches.create_match(table, "napoleon", seated)
deal = actions.deals.enter_deal(match, record).stored()
seen.append(got())
corrections.correct_deal(deal, {**record, "declaration": {**record["declaration"], "count": 17}},
                         None, "count")
seen.append(got())
print("SEEN", " ".join(seen), SeasonFile.objects.filter(season=season).count())
"""


@pytest.mark.slow
@EMBEDDED
@pytest.mark.parametrize("fmt", ["pdf", "xlsx"])
def test_on_the_demos_sqlite_a_deal_entered_or_corrected_makes_a_new_file(fmt, embedded_demo):
    """`make demo`'s own database (SQLite, tasks run in the request, no fingerprint kept)."""
    env, _said = embedded_demo
    said = run_manage(env, "shell", "-c", DEMO_SCRIPT % fmt)
    first, again, entered, corrected, kept = said[said.index("SEEN") :].split()[1:]
    assert first == again  # kept
    assert len({first, entered, corrected}) == 3
    assert kept == "1"
