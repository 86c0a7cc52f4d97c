"""The match lines indexed by season and id (issue 26): a season's fingerprint, the ids of its
lines, is read from the index alone instead of the whole table; the index of the season
alone goes (this one, and two others, start with it)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0007_match_line_counts"),
        ("tournaments", "0016_deal_without_event"),
    ]

    operations = [
        migrations.AlterField(
            model_name="matchstanding",
            name="season",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="match_standings",
                to="tournaments.season",
            ),
        ),
        migrations.AddIndex(
            model_name="matchstanding",
            index=models.Index(fields=["season", "id"], name="match_line_by_season"),
        ),
    ]
