"""Set-up shared by the tests of the pages: tonight's table and its Napoleon match (a
table link works on its night's date and the day after)."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.conftest import NAPOLEON_SEATS
from tournaments.models import ClubNight, Table


@pytest.fixture
def tonight(season):
    """A table of a club night held today."""
    night = ClubNight.objects.create(season=season, date=timezone.localdate(), venue="Hall")
    return Table.objects.create(club_night=night, name="Table 1")


@pytest.fixture
def match(tonight, make_match):
    """A Napoleon match at ``tonight`` among NAPOLEON_SEATS."""
    return make_match("napoleon", NAPOLEON_SEATS, at=tonight)
