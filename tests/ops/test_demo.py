"""The demo club loads, every deal is one the engine accepts, and loading twice is harmless."""

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

import actions.deals
import engine
from ops.demo import ADMIN, SCORER
from tournaments.models import ClubNight, Deal, Match, Player

pytestmark = pytest.mark.django_db


def test_the_demo_league_has_what_the_readme_promises(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo")
    assert Player.objects.count() >= 8
    assert ClubNight.objects.count() == 4
    # Three nights played, and the next one still to come, with no table yet.
    upcoming = ClubNight.objects.latest("date")
    assert upcoming.date == timezone.localdate() + dt.timedelta(days=7)
    assert not upcoming.tables.exists() and upcoming.date <= upcoming.season.ends_on
    seats = {m.game: len(m.seated_players()) for m in Match.objects.all()}
    assert seats == {
        "rettler": 6,
        "napoleon": 4,
        "comp13": 4,
        "packing": 4,
        "twentytwo": 4,
        "1234": 3,
        "bhabhi": 5,
        "comrade": 3,
    }
    assert Deal.objects.filter(match__game="comp13").count() >= 3
    for game in seats:  # every game on every night, so that its plot has three points
        nights = Match.objects.filter(game=game).values("table__club_night").distinct().count()
        assert nights == 3, game
    packing = Match.objects.filter(game="packing").earliest("pk")
    assert any(len(side) == 2 for side in packing.partnerships())
    # Comp-13 and Packing each open with a deal logged move by move.
    assert "moves" in Deal.objects.filter(match__game="comp13", number=1).earliest("pk").record
    assert "turns" in Deal.objects.filter(match__game="packing", number=1).earliest("pk").record
    # So do the matches of the other four rulebook games.
    for game, key in (
        ("twentytwo", "tricks"),
        ("1234", "turns"),
        ("bhabhi", "rounds"),
        ("comrade", "bidding"),
    ):
        assert key in Deal.objects.filter(match__game=game, number=1).earliest("pk").record, game
    for match in Match.objects.all():
        records = [d.record for d in match.deals.order_by("number")]
        assert engine.check_match(actions.deals.match_record(match, records)).valid
        assert match.standings.count() == len(match.seated_players())
    admin = User.objects.get(username=ADMIN[0])  # the README's passwords (sign-in: axes)
    assert admin.check_password(ADMIN[1]) and admin.is_staff
    assert User.objects.get(username=SCORER[0]).check_password(SCORER[1])


def test_loading_the_demo_twice_changes_nothing():
    call_command("load_demo")
    deals = Deal.objects.count()
    call_command("load_demo")
    assert Deal.objects.count() == deals
