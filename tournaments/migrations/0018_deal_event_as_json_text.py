"""The deals' rated events kept as JSON text (PostgreSQL's ``json``, not ``jsonb``; issue 26).

The ratings replay reads every counting deal's event as text, and a ``jsonb`` value is
made into text again on every read: at 1,000,000 deals that was most of the database's
part of a replay (ten clubs: 159 ms, against 53 ms from ``json``).  Nothing queries inside
an event.  The column is rewritten once (a minute at most for a million deals, the
table locked meanwhile: run it in the upgrade's window); SQLite keeps JSON as text already.
"""

from django.db import migrations

import tournaments.models.play


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0017_deal_events_by_match")]

    operations = [
        migrations.AlterField(
            model_name="deal",
            name="event",
            field=tournaments.models.play.JSONText(
                blank=True,
                help_text="The deal as the ratings see it (teams of player ids, ranks, weights, stake), written with its scores (empty: derived from the record when rated).",
                null=True,
            ),
        ),
    ]
