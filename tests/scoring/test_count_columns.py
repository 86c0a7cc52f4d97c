"""A match line's own counts in number columns (issue 26): the lines kept before the
change move into them, back and forth, and the season lines stay as they were."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from ops.federation import generate
from scoring.models import COUNTS, MatchStanding, SeasonStanding
from scoring.players import LINE_SUMS
from scoring.rebuild import rebuild_all
from scoring.season_totals import rebuild_seasons
from tests.scoring.derived import COLUMNS, derived
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


def test_every_game_s_counts_fit_the_columns_and_its_statistics_are_made_of_them():
    for name, league in LEAGUE_GAMES.items():
        assert len(league.counts) <= COUNTS, name
        assert len(set(league.counts)) == len(league.counts), name
        made_of = {*league.counts, *LINE_SUMS, "points"}
        statistics = league.all_statistics()
        assert len(statistics) >= 10, name
        assert len({s.key for s in statistics}) == len(statistics), name
        for statistic in statistics:
            assert {statistic.of, statistic.per} - {""} <= made_of, (name, statistic.key)


@pytest.mark.django_db(transaction=True)
def test_the_kept_lines_move_into_the_columns_and_back():
    generate(1, 12, 400, 3)
    rebuild_all()
    lines = derived(MatchStanding)[0]
    first = COLUMNS[MatchStanding].index("count_1")
    declarers = ("napoleon", "rettler")  # the games with counts when 0007 was written
    counted = [line for line in lines if line[7] in declarers and line[first] is not None]
    assert counted and {line[7] for line in counted} == set(declarers)
    seasons = derived(SeasonStanding)
    try:
        migrate(BEFORE)  # back: the counts as JSON again, as 0006 kept them
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT match_id, player_id, numbers FROM scoring_matchstanding"
                " WHERE numbers IS NOT NULL AND game IN ('napoleon', 'rettler')"
            )
            kept = {(m, p): json.loads(n) for m, p, n in cursor.fetchall()}
        assert len(kept) == len(counted)
        keys = ["declared", "won_declaring", "adjutant", "won_adjutant"]
        for line in counted:
            assert kept[line[0], line[1]] == dict(zip(keys, line[first : first + 4], strict=True))
    finally:
        migrate()  # forward again (through 0007: the columns from the JSON) to the latest

    def kept_by_0007(rows):  # what 0007 moved, of the games it moved
        head = COLUMNS[MatchStanding].index("top_half")
        return [row[:head] + row[first : first + 4] for row in rows if row[7] in declarers]

    assert kept_by_0007(derived(MatchStanding)[0]) == kept_by_0007(lines)
    rebuild_all()  # the statistics' columns (0011) are filled by the next rebuild
    assert derived(MatchStanding)[0] == lines
    SeasonStanding.objects.all().delete()
    rebuild_seasons(list(Season.objects.values_list("pk", flat=True)))
    assert derived(SeasonStanding) == seasons
    counted_at = COLUMNS[SeasonStanding].index("count_1")
    assert any(line[counted_at] for line in seasons[0])  # the games' own counts, summed
    with connection.cursor() as cursor:  # the latest schema again, for the tests after
        cursor.execute("SELECT count(*) FROM scoring_export")
