"""A private season stays private in the ratings (issue 24, 3): readers who may read only
a club's public seasons see ratings made of those seasons alone, on the player page (the
rating, its "N deals rated", its plot), the public leaderboard ordered by rating and
``/api/standings/?order=rating``; the club's members see every season counted."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from rest_framework.test import APIClient

import actions.deals
import actions.matches
from actions import seasons
from scoring.models import Rating
from scoring.ratings import rebuild_club_ratings
from tests.conftest import NAPOLEON_SEATS, napoleon_deal
from tournaments.models import ClubNight, Season, Table

pytestmark = pytest.mark.django_db

BEN_WINS = napoleon_deal(
    declarer="ben", adjutant="dai", points={"aki": 3, "ben": 9, "chika": 1, "dai": 7}
)


@pytest.fixture
def two_seasons(club, players, scorer, member, django_capture_on_commit_callbacks):
    """A public season where Aki wins one deal, a private one where Ben wins five."""
    public = Season.objects.create(club=club, name="Open", games=["napoleon"], public=True)
    private = Season.objects.create(club=club, name="Club", games=["napoleon"])
    seated = [players[h] for h in NAPOLEON_SEATS]
    with django_capture_on_commit_callbacks(execute=True):
        for season, day, record, deals in (
            (private, 1, BEN_WINS, 5),
            (public, 2, napoleon_deal(), 1),
        ):
            night = ClubNight.objects.create(season=season, date=dt.date(2026, 10, day))
            table = Table.objects.create(club_night=night, name="Table 1", scorer=scorer)
            match = actions.matches.create_match(table, "napoleon", seated)
            for _ in range(deals):
                actions.deals.enter_deal(match, record, user=scorer).stored()
    return public, private


def test_anonymous_readers_see_ratings_of_the_public_seasons_only(two_seasons, players, member):
    public, _private = two_seasons
    anonymous, signed_in = APIClient(), APIClient()
    signed_in.force_authenticate(member)

    rows = anonymous.get(f"/api/standings/?season={public.pk}&order=rating").json()["results"]
    assert rows[0]["handle"] == "aki"  # Aki won the only public deal
    mine = signed_in.get(f"/api/standings/?season={public.pk}&order=rating").json()["results"]
    assert mine[0]["handle"] == "ben"  # the club's members count Ben's five private wins
    assert {r["handle"]: r["rating"] for r in rows} != {r["handle"]: r["rating"] for r in mine}

    page = Client().get(f"/players/{players['ben'].pk}/").content.decode()
    assert "1 deal rated" in page and "1 deals rated" not in page and "6 deals rated" not in page
    club = Client()
    club.force_login(member)
    assert "6 deals rated" in club.get(f"/players/{players['ben'].pk}/").content.decode()

    board = Client().get(f"/seasons/{public.pk}/?sort=rating").content.decode()
    assert board.index(">Aki<") < board.index(">Ben<")

    csv = Client().get(f"/seasons/{public.pk}/standings.csv").getvalue().decode("utf-8-sig")
    public_rating = Rating.objects.get(player=players["aki"], game="napoleon", scope="public")
    assert f"{public_rating.rating:.1f}" in csv


def test_the_public_scope_equals_a_club_that_played_only_its_public_seasons(
    two_seasons, club, players
):
    public, private = two_seasons
    scoped = {
        (r.player_id, round(r.mu, 9), round(r.sigma, 9), r.deals)
        for r in Rating.objects.filter(scope="public")
    }
    private.public = True  # then every season is public: one replay makes both scopes
    private.save()
    for match in private.club_nights.get().tables.get().matches.all():
        match.deals.update(deleted_at=dt.datetime(2026, 10, 3, tzinfo=dt.UTC))
    rebuild_club_ratings(club.pk)
    alone = {
        (r.player_id, round(r.mu, 9), round(r.sigma, 9), r.deals)
        for r in Rating.objects.filter(scope="club")
    }
    assert scoped == alone
    assert scoped == {
        (r.player_id, round(r.mu, 9), round(r.sigma, 9), r.deals)
        for r in Rating.objects.filter(scope="public")
    }


def test_a_season_made_public_or_private_replays_the_ratings(
    two_seasons, players, django_capture_on_commit_callbacks
):
    public, private = two_seasons
    with django_capture_on_commit_callbacks(execute=True):
        public.public = False
        seasons.save_season(public)
    assert not Rating.objects.filter(scope="public").exists()
    anonymous = Client().get(f"/players/{players['aki'].pk}/").content.decode()
    assert "deal rated" not in anonymous and "deals rated" not in anonymous
    with django_capture_on_commit_callbacks(execute=True):
        private.public = True
        seasons.save_season(private)
    assert Rating.objects.get(player=players["ben"], game="napoleon", scope="public").deals == 5
