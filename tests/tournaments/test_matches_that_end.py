"""Matches that end (issue 29, 4): a Napoleon or Rettler match with a number of deals
ends by itself; any open match ends by "End the match" (the table's scorer or an
administrator, with a reason), finished as it stands, its winner by the game's own
ranking and counted in "matches won"; reopening asks a reason; both are in the history."""

import json

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

import actions.deals
import actions.matches
import engine
from scoring.models import MatchStanding, SeasonStanding
from tests.conftest import NAPOLEON_SEATS, napoleon_deal
from tournaments.models import Club, ClubNight, Deal, Match, MatchEvent, Player, Season

pytestmark = pytest.mark.django_db


def api_of(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_engine_ends_a_napoleon_match_after_its_number_of_deals():
    record = {
        "game": "napoleon",
        "players": NAPOLEON_SEATS,
        "target": 2,
        "deals": [napoleon_deal(), napoleon_deal()],
    }
    result = engine.check_match(record)
    assert result.valid and result.finished and result.winner == "aki"
    assert engine.check_match({**record, "deals": record["deals"][:1]}).finished is False
    over = engine.check_match({**record, "deals": [*record["deals"], napoleon_deal()]})
    assert [e.code for e in over.errors] == ["match_over"]
    assert engine.check_match({**record, "target": 0}).errors  # a number of deals: 1 or more


def test_a_match_with_a_number_of_deals_ends_by_itself(
    make_match, scorer, season, django_capture_on_commit_callbacks
):
    match = make_match("napoleon", NAPOLEON_SEATS, target=2)
    with django_capture_on_commit_callbacks(execute=True):
        actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
        actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and not match.ended_by_hand
    aki = SeasonStanding.objects.get(season=season, game="napoleon", player__handle="aki")
    assert aki.matches_won == 1


def test_end_the_match_by_hand_then_reopen_with_reasons(
    make_match, scorer, club_admin, member, season, client, django_capture_on_commit_callbacks
):
    match = make_match("napoleon", NAPOLEON_SEATS)
    with django_capture_on_commit_callbacks(execute=True):
        actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
    assert (
        api_of(member).post(f"/api/matches/{match.pk}/finish/", {"reason": "x"}).status_code == 403
    )
    no_reason = api_of(scorer).post(f"/api/matches/{match.pk}/finish/", {})
    assert no_reason.status_code == 400 and Match.objects.get(pk=match.pk).status == "open"
    with django_capture_on_commit_callbacks(execute=True):
        ended = api_of(scorer).post(
            f"/api/matches/{match.pk}/finish/", {"reason": "the hall closes at ten"}
        )
    assert ended.status_code == 200, ended.json()
    assert ended.json()["status"] == "finished" and ended.json()["ended_by_hand"] is True
    line = MatchStanding.objects.get(match=match, player__handle="aki")
    assert line.finished and line.rank == 1
    client.force_login(club_admin)
    sheet = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'class="winner"' in sheet and "Aki" in sheet.split('class="winner"')[1][:80]
    assert (
        SeasonStanding.objects.get(season=season, game="napoleon", player__handle="aki").matches_won
        == 1
    )
    again = api_of(scorer).post(
        f"/api/matches/{match.pk}/deals/", {"record": napoleon_deal()}, format="json"
    )
    assert again.status_code == 409 and again.json()["errors"][0]["code"] == "match_finished"

    client.force_login(club_admin)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/matches/{match.pk}/reopen/", {"reason": "two more deals were played"})
    match.refresh_from_db()
    assert match.status == "open" and not match.ended_by_hand
    assert (
        SeasonStanding.objects.get(season=season, game="napoleon", player__handle="aki").matches_won
        == 0
    )
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "the hall closes at ten" in page and "two more deals were played" in page
    assert list(MatchEvent.objects.filter(match=match).values_list("action", flat=True)) == [
        "ended",
        "reopened",
    ]


def test_a_match_never_played_ends_with_no_winner_and_no_line(
    make_match, scorer, club_admin, season, client, django_capture_on_commit_callbacks
):
    """A table drawn and never played (the night went over to rounds, a player left):
    "End the match" ends it too, and nobody wins it; the sheet names no winner."""
    match = make_match("napoleon", NAPOLEON_SEATS)
    with django_capture_on_commit_callbacks(execute=True):
        ended = api_of(scorer).post(f"/api/matches/{match.pk}/finish/", {"reason": "no time"})
    assert ended.status_code == 200, ended.json()
    assert ended.json()["status"] == "finished" and ended.json()["ended_by_hand"] is True
    assert not MatchStanding.objects.filter(match=match, finished=True).exists()
    assert not SeasonStanding.objects.filter(season=season).exists()
    client.force_login(club_admin)
    sheet = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'class="winner"' not in sheet and "no time" in sheet
    again = api_of(scorer).post(f"/api/matches/{match.pk}/finish/", {"reason": "twice"})
    assert again.status_code == 409  # a retry ends nothing more
    assert MatchEvent.objects.filter(match=match).count() == 1


def test_the_match_page_ends_a_match_and_a_backup_keeps_it(
    make_match, scorer, client, tmp_path, django_capture_on_commit_callbacks
):
    match = make_match("rettler", ["aki", "ben", "chika", "dai", "emi", "fumi"])
    record = {
        "declaration": {"player": "aki", "count": 28, "trump": "diamonds"},
        "adjutant_cards": ["SA"],
        "adjutants": ["chika", "dai"],
        "point_cards": {"aki": 16, "ben": 6, "chika": 10, "dai": 3, "emi": 1, "fumi": 4},
    }
    actions.deals.enter_deal(match, record, user=scorer).stored()
    client.force_login(scorer)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="end-match"' in page
    client.post(f"/matches/{match.pk}/end/", {"reason": "last deal of the night"})
    match.refresh_from_db()
    assert match.status == "finished" and match.ended_by_hand

    path = tmp_path / "club.json"
    call_command("export_club", "test", str(path))
    doc = json.loads(path.read_text(encoding="utf-8"))
    for model in (Deal, Match, ClubNight, Season, Player, Club):
        model.objects.all().delete()
    call_command("import_club", str(path), "--link-all-accounts")
    restored = Match.objects.get()
    assert restored.status == "finished" and restored.ended_by_hand
    assert restored.events.get().reason == "last deal of the night"
    assert doc["seasons"][0]["club_nights"][0]["tables"][0]["matches"][0]["ended_by_hand"] is True


def test_the_nights_number_of_deals_ends_its_open_ended_matches(
    season, players, scorer, django_capture_on_commit_callbacks
):
    from tournaments.models import Table

    night = ClubNight.objects.create(season=season, date="2026-12-05", deals_per_match=1)
    table = Table.objects.create(club_night=night, name="Table 1", scorer=scorer)
    napoleon = actions.matches.create_match(table, "napoleon", [players[h] for h in NAPOLEON_SEATS])
    comp13 = actions.matches.create_match(table, "comp13", [players[h] for h in NAPOLEON_SEATS])
    assert napoleon.target == 1 and comp13.target == 12  # Comp-13 keeps its own end
    actions.deals.enter_deal(napoleon, napoleon_deal(), user=scorer).stored()
    assert Match.objects.get(pk=napoleon.pk).status == "finished"
