"""A season's final (issue 40, 3): a season of 30 players ranked by its best six club nights
with a qualifying minimum marks a club night as its final; the final table drawn there
seats the top qualified players of the season's leaderboard; the winner of its match is
the season's champion on the season page, and a correction of the final names the new
one.  A season has one final night: a second is refused on the page and by the API."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from django.db import connection
from django.test import Client
from django.utils import translation

import actions.deals
from actions import corrections, seasons
from scoring.finals import draw_order, season_final
from scoring.models import SeasonStanding
from tests import worlds
from tests.conftest import client_of, member_of
from tests.markup import squeezed
from tournaments.games import LEAGUE_GAMES
from tournaments.games.base import demo_deals
from tournaments.models import ClubNight, Match, Membership, Player, Round, Season

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture
def season(django_capture_on_commit_callbacks):
    """A generated season of 30 players, ranked by the best 6 club nights, qualified from 4."""
    worlds.rebuilt_federation(1, 30, 900, 41, tables=3)
    season = Season.objects.order_by("pk").first()
    season.ranking, season.best_of, season.qualify_minimum = "best_nights", 6, 4
    with django_capture_on_commit_callbacks(execute=True):
        seasons.save_season(season)
    return season


@pytest.fixture
def admin(season, django_user_model):
    return member_of(season.club, django_user_model, "secretary", Membership.Role.ADMIN)


def test_the_final_seats_the_top_qualified_and_its_winner_is_the_champion(
    season, admin, django_capture_on_commit_callbacks
):
    api = client_of(admin)
    made = api.post(
        "/api/club-nights/",
        {"season": season.pk, "date": "2027-01-30", "venue": "Hall", "final": True},
        format="json",
    )
    assert made.status_code == 201, made.json()
    final = ClubNight.objects.get(pk=made.json()["id"])
    everyone = list(Player.objects.filter(club=season.club).values_list("pk", flat=True))
    final.present.set(everyone)
    board = SeasonStanding.objects.filter(season=season, game="napoleon").order_by("rank")
    qualified = [line.player_id for line in board if line.qualified]
    assert len(qualified) >= 4 and board.filter(qualified=False).exists()
    assert draw_order(final, "napoleon")[: len(qualified)] == qualified
    body = {"game": "napoleon", "method": "final", "size": 4, "deals": 2, "others": "sit_out"}
    with django_capture_on_commit_callbacks(execute=True):
        drawn = api.post(f"/api/club-nights/{final.pk}/rounds/", body, format="json")
    assert drawn.status_code == 201, drawn.json()
    match = Match.objects.get(table__round__club_night=final)
    seated = [p.pk for p in match.seated_players()]
    assert sorted(seated) == sorted(qualified[:4])  # the top four qualified, none below
    assert season_final(season).champions == []

    handles = [p.handle for p in match.seated_players()]
    deals = demo_deals(LEAGUE_GAMES["napoleon"], 40, handles, most=2, first_in_full=False)
    for record in deals[:2]:
        with django_capture_on_commit_callbacks(execute=True):
            actions.deals.enter_deal(match, record, user=admin).stored()
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    champions = season_final(season).champions
    lines = {line.player.handle: line for line in match.standings.select_related("player")}
    assert [c.handle for c in champions] == sorted(
        (h for h, line in lines.items() if line.rank == 1),
        key=lambda h: lines[h].player.display_name,
    )

    page = Client()
    page.force_login(admin)
    shown = squeezed(page.get(f"/seasons/{season.pk}/").content.decode())
    names = ", ".join(c.display_name for c in champions)
    assert f"<strong>Champion: {names} (Napoleon)</strong>" in shown
    with translation.override("ja"):
        page.cookies["django_language"] = "ja"
        assert f"優勝：{names}（ナポレオン）" in squeezed(
            page.get(f"/seasons/{season.pk}/").content.decode()
        )

    # The final's last deal taken out (the match reopened): no champion until it ends again.
    with django_capture_on_commit_callbacks(execute=True):
        corrections.reopen_match(match, admin, "a deal was entered at the wrong table")
        corrections.delete_deal(match.deals.latest("number"), admin, "wrong table")
    assert season_final(season).champions == []
    assert Round.objects.filter(club_night=final, method="final").count() == 1


def test_a_season_has_one_final_night(season, admin):
    ClubNight.objects.create(season=season, date=dt.date(2027, 1, 30), final=True)
    api = client_of(admin)
    refused = api.post(
        "/api/club-nights/",
        {"season": season.pk, "date": "2027-02-06", "final": True},
        format="json",
    )
    assert refused.status_code == 400
    assert [e["path"] for e in refused.json()["errors"]] == ["final"]
    page = Client()
    page.force_login(admin)
    page.cookies["django_language"] = "ja"
    answer = page.post(
        f"/seasons/{season.pk}/nights/new/",
        {"date": "2027-02-06", "venue": "Hall", "standings": "points", "final": "on"},
    )
    assert answer.status_code == 200
    assert "このシーズンにはもう決勝の例会があります" in answer.content.decode()
    assert ClubNight.objects.filter(season=season, final=True).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_administrators_marking_two_finals_at_once_store_one_and_both_get_an_answer(
    club, django_user_model
):
    """Both pass the form's check before either stores: the season's row lock in
    ``nights.save_night`` lets one in, and refuses the other in words, never a 500."""
    season = Season.objects.create(club=club, name="Winter", games=["napoleon"])
    admins = [
        member_of(club, django_user_model, name, Membership.Role.ADMIN) for name in ("a", "b")
    ]
    start = threading.Barrier(2)
    answers: list[int] = []

    def mark(admin, day):
        api = client_of(admin)
        try:
            start.wait(timeout=10)
            body = {"season": season.pk, "date": day, "final": True}
            answers.append(api.post("/api/club-nights/", body, format="json").status_code)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=mark, args=(admin, day))
        for admin, day in zip(admins, ("2027-03-06", "2027-03-13"), strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(answers) == [201, 400]
    assert ClubNight.objects.filter(season=season, final=True).count() == 1
