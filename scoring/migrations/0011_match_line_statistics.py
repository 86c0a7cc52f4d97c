"""The statistics' sums: twenty count columns (which may be negative: a score as
declarer is one), each line's top half and last place, and a season line's sums over
finished matches.  The lines kept before have none of them: every match is marked
unchecked, so that the next rebuild (``manage.py rebuild_standings``) checks it again
and fills them."""

from dbtools import backend
from django.db import migrations, models


INDEX = "match_line_by_night"
COVERED = "points, scored, deals_won, finished, rank"
COUNTS = ", ".join(f"count_{i}" for i in range(1, 5))
EVERY_COUNT = ", ".join(f"count_{i}" for i in range(1, 21))


def recheck(apps, schema_editor):
    apps.get_model("tournaments", "Match").objects.update(checked_version=0)


def _index(schema_editor, covered: str) -> None:
    """The season totals read a season's lines from this index alone (0007): it covers
    every column they sum (31 of PostgreSQL's 32)."""
    if backend.vendor_of(schema_editor.connection) == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")
        schema_editor.execute(
            f"CREATE INDEX {INDEX} ON scoring_matchstanding (season_id, game, player_id, night)"
            f" INCLUDE ({covered})"
        )


def cover_statistics(apps, schema_editor):
    _index(schema_editor, f"{COVERED}, top_half, last_place, {EVERY_COUNT}")


def uncover_statistics(apps, schema_editor):
    _index(schema_editor, f"{COVERED}, {COUNTS}")


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0010_standing_score'),
        ('tournaments', '0029_season_divisions'),
    ]

    operations = [
        migrations.AddField(
            model_name='matchstanding',
            name='count_10',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='matchstanding',
            name='count_11',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='matchstanding',
            name='count_12',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='matchstanding',
            name='count_13',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='matchstanding',
            name='count_14',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='matchstanding',
            name='count_15',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='matchstanding',
            name='count_16',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='matchstanding',
            name='count_17',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='matchstanding',
            name='count_18',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='matchstanding',
            name='count_19',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='matchstanding',
            name='count_20',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='matchstanding',
            name='count_5',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='matchstanding',
            name='count_6',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='matchstanding',
            name='count_7',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='matchstanding',
            name='count_8',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='matchstanding',
            name='count_9',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='matchstanding',
            name='last_place',
            field=models.BooleanField(default=False, help_text='A finished match the player ended last: nobody below, somebody above.'),
        ),
        migrations.AddField(
            model_name='matchstanding',
            name='top_half',
            field=models.BooleanField(default=False, help_text='A finished match the player ended in its top half: rank × 2 ≤ its players.'),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='finished_matches',
            field=models.PositiveIntegerField(default=0, help_text='Finished matches played.'),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='last_place',
            field=models.PositiveIntegerField(default=0, help_text='Those ended last.'),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='rank_sum',
            field=models.PositiveIntegerField(default=0, help_text='The sum of their ranks.'),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='top_half',
            field=models.PositiveIntegerField(default=0, help_text='Those ended in the top half.'),
        ),
        migrations.AlterField(
            model_name='matchstanding',
            name='count_1',
            field=models.IntegerField(null=True),
        ),
        migrations.AlterField(
            model_name='matchstanding',
            name='count_2',
            field=models.IntegerField(null=True),
        ),
        migrations.AlterField(
            model_name='matchstanding',
            name='count_3',
            field=models.IntegerField(null=True),
        ),
        migrations.AlterField(
            model_name='matchstanding',
            name='count_4',
            field=models.IntegerField(null=True),
        ),
        migrations.RunPython(cover_statistics, uncover_statistics),
        migrations.RunPython(recheck, migrations.RunPython.noop),
    ]
