"""Set-up shared by the tests of the pages: tonight's table and its Napoleon match (a
table link works on its night's date and the day after), and a league administrator's
page client."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from actions import pins
from tests import worlds
from tests.conftest import NAPOLEON_SEATS, member_of
from tournaments.models import ClubNight, Membership, Season, Table


@pytest.fixture
def demo(django_capture_on_commit_callbacks):
    """The demo club's season, every deal scored as the workers would after its commits."""
    with django_capture_on_commit_callbacks(execute=True):
        worlds.demo(scored=True)
    return Season.objects.get()


@pytest.fixture
def tonight(season):
    """A table of a club night held today."""
    night = ClubNight.objects.create(season=season, date=timezone.localdate(), venue="Hall")
    return Table.objects.create(club_night=night, name="Table 1")


@pytest.fixture
def match(tonight, make_match):
    """A Napoleon match at ``tonight`` among NAPOLEON_SEATS."""
    return make_match("napoleon", NAPOLEON_SEATS, at=tonight)


@pytest.fixture
def admin(club, django_user_model):
    """A page client signed in as ``lena``, a league administrator of ``club``."""
    page = Client()
    page.force_login(member_of(club, django_user_model, "lena", Membership.Role.ADMIN))
    return page


@pytest.fixture
def confirming(season):
    """A season whose deals need a second person's confirmation."""
    season.require_confirmation = True
    season.save()


@pytest.fixture
def aki(players, member):
    """The member's own player, seated in ``match``, with the PIN 1357."""
    players["aki"].user = member
    players["aki"].save()
    pins.set_pin(players["aki"], "1357")
    return players["aki"]
