"""A covering index of the deals' rated events (issue 26), on PostgreSQL.

The ratings replay reads each match's counting deals in the order of their numbers, and
of each only its event and whether it is confirmed (``scoring.rating_events``).  With
these columns in an index of the deals not deleted, PostgreSQL reads them without
visiting the table, whose rows carry the whole record (at 1,000,000 deals: 250 MB of
index against 790 MB of table, so a replay's read no longer waits for pages the
database's cache could not keep).  SQLite (the demo) has no covering indexes and does
not need one.
"""

from dbtools import backend
from django.db import migrations

INDEX = "deal_events_by_match"


def create(apps, schema_editor):
    if backend.vendor_of(schema_editor.connection) == "postgresql":
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {INDEX} ON tournaments_deal (match_id, number)"
            " INCLUDE (confirmed_at, event) WHERE deleted_at IS NULL"
        )


def drop(apps, schema_editor):
    if backend.vendor_of(schema_editor.connection) == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0016_deal_without_event")]

    operations = [migrations.RunPython(create, drop)]
