"""The box to find a name in a long list of players (``{% name_finder %}``): "my night"
before the draw and the attendance of a big club.  Short lists have none; every item of a
long one carries what else finds it (the name in Japanese, its reading), and the box says
what it is in the reader's language."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from tests.conftest import member_of
from tests.markup import squeezed
from tournaments.models import Club, ClubNight, Membership, Player, Season
from web.templatetags.clubscore import FIND_FROM

pytestmark = pytest.mark.django_db


def club_of(players: int) -> tuple[Club, ClubNight]:
    """A private season's club of ``players`` players, one of them Tanaka Ken (田中 健,
    たなか けん), one 山田 太郎 with no reading, and next week's night, nobody drawn yet."""
    club = Club.objects.create(name="Hall", slug="hall")
    season = Season.objects.create(club=club, name="Winter", games=["napoleon"])
    night = ClubNight.objects.create(season=season, date=timezone.localdate() + dt.timedelta(7))
    Player.objects.create(
        club=club,
        handle="tanaka",
        display_name="Tanaka Ken",
        name_ja="田中 健",
        reading="たなか けん",
    )
    Player.objects.create(club=club, handle="yamada-tarou", display_name="山田 太郎")
    for i in range(players - 2):
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"Player {i}")
    return club, night


@pytest.mark.parametrize(("players", "shown"), [(FIND_FROM, False), (FIND_FROM + 1, True)])
def test_my_night_before_the_draw_offers_the_box_for_a_long_list(django_user_model, players, shown):
    club, night = club_of(players)
    reader = Client()
    reader.force_login(member_of(club, django_user_model, "ren", Membership.Role.MEMBER))
    reader.cookies["django_language"] = "ja"
    page = squeezed(reader.get(f"/nights/{night.pk}/me/").content.decode())
    assert page.count('href="?player=') == players  # the whole list, with the box or not
    assert ('data-find-names="#player-pages"' in page) is shown
    assert ("名前で探す" in page) is shown
    assert (
        '<li data-also="Tanaka Ken 田中 健 たなか けん tanaka">' in page
    )  # what the box reads beside the name


@pytest.mark.parametrize(("page_of", "field"), [("draw", "present"), ("rounds", "players")])
def test_the_attendance_and_the_rounds_of_a_big_club_offer_the_box(
    django_user_model, page_of, field
):
    club, night = club_of(FIND_FROM + 5)
    admin = Client()
    admin.force_login(member_of(club, django_user_model, "sec", Membership.Role.ADMIN))
    page = squeezed(admin.get(f"/nights/{night.pk}/{page_of}/").content.decode())
    assert f'data-find-names="#field-{field}"' in page and "Find a name" in page
    assert 'data-also="Tanaka Ken 田中 健 たなか けん tanaka"' in page
    assert page.count("data-also=") == FIND_FROM + 5
    if page_of == "rounds":
        return
    # The games of the night are a short list of their own: no box, nothing to find by.
    games = page[page.index('id="field-games"') :]
    assert "data-find-names" not in games and "data-also" not in games
