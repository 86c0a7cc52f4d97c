"""A match line's own counts in number columns (issue 26): the lines kept before the
change move into them, back and forth, and the season lines stay as they were."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ops.federation import generate
from scoring.models import COUNTS, MatchStanding, SeasonStanding
from scoring.rebuild import rebuild_all
from scoring.season_totals import rebuild_seasons
from tests.scoring.derived import derived
from tournaments.games import LEAGUE_GAMES
from tournaments.models import Season

pytestmark = pytest.mark.slow

BEFORE = [("scoring", "0006_match_lines_by_night")]


def migrate(target=None):
    """To ``target``, or (``None``) forward to every app's latest migration: the tests
    that run after this one find the schema whole."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target or executor.loader.graph.leaf_nodes())


def test_every_game_s_counts_fit_the_columns():
    for name, league in LEAGUE_GAMES.items():
        assert len(league.number_labels) <= COUNTS, name


@pytest.mark.django_db(transaction=True)
def test_the_kept_lines_move_into_the_columns_and_back():
    generate(1, 12, 400, 3)
    rebuild_all()
    lines = derived(MatchStanding)[0]
    counted = [line for line in lines if line[12] is not None]
    assert counted and {line[7] for line in counted} == {"napoleon", "rettler"}
    seasons = derived(SeasonStanding)
    try:
        migrate(BEFORE)  # back: the counts as JSON again, as 0006 kept them
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT match_id, player_id, numbers FROM scoring_matchstanding"
                " WHERE numbers IS NOT NULL"
            )
            kept = {(m, p): json.loads(n) for m, p, n in cursor.fetchall()}
        assert len(kept) == len(counted)
        keys = ["declared", "won_declaring", "adjutant", "won_adjutant"]
        for line in counted:
            assert kept[line[0], line[1]] == dict(zip(keys, line[12:], strict=True))
    finally:
        migrate()  # forward again (through 0007: the columns from the JSON) to the latest
    assert derived(MatchStanding)[0] == lines
    SeasonStanding.objects.all().delete()
    rebuild_seasons(list(Season.objects.values_list("pk", flat=True)))
    assert derived(SeasonStanding) == seasons
    assert any(line[9] for line in seasons[0])  # the declarer games' own counts, summed
    with connection.cursor() as cursor:  # the latest schema again, for the tests after
        cursor.execute("SELECT count(*) FROM scoring_export")
