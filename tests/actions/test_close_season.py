"""Closing a season ranks from standings it brings up to date itself: deals whose
refresh the workers have not run yet (here: never run) still decide who moves."""

from __future__ import annotations

import pytest

import actions.seasons
from scoring import divisions as ranked
from scoring.models import SeasonStanding
from tests.scoring.test_divisions import NIGHTS, a_night, league
from tournaments.models import Move

pytestmark = pytest.mark.django_db


def test_closing_ranks_from_standings_brought_up_to_date_under_its_locks():
    season, people = league("A B", players=12, slug="stale")
    for day in range(NIGHTS):
        a_night(season, people, day)  # tests do not run the refreshes handed on at commit
    assert not SeasonStanding.objects.filter(season=season).exists()

    closed = actions.seasons.close_season(season, "Winter")

    assert SeasonStanding.objects.filter(season=season, game="napoleon").count() == len(people)
    moved = {(m.player_id, m.rank, m.kind, m.next_division) for m in closed.moves}
    proposal = {(x.player.pk, x.rank, x.kind, x.going) for x in ranked.lines(season)}
    assert moved == proposal  # what the stored standings now propose, move for move
    assert {m.kind for m in closed.moves} >= {Move.Kind.UP, Move.Kind.DOWN}
    assert all(m.rank is not None for m in closed.moves if m.kind == Move.Kind.UP)
