"""A match line's own counts in number columns, not JSON (issue 26).

A season's counts (Napoleon's and Rettler's "declared", "won as declarer", …) were
summed by taking every line's JSON apart per key: half of the leaderboard statement.
They are now ``count_1`` … ``count_4`` in the order of the game's ``number_labels``,
summed as numbers and kept in the covering index of the season totals.

The lines kept so far move into the columns here: at the time of this migration the
declarer games (Napoleon, Rettler) are the only ones with counts, the four below in
this order.  The season lines (``SeasonStanding.numbers``) do not change.
"""

from dbtools import backend
from django.db import migrations, models

KEYS = ["declared", "won_declaring", "adjutant", "won_adjutant"]
INDEX = "match_line_by_night"
COVERED = "points, scored, deals_won, finished, rank"
COUNTS = ", count_1, count_2, count_3, count_4"


def _value(vendor: str, key: str) -> str:
    if vendor == "postgresql":
        return f"(numbers ->> '{key}')::integer"
    return f"json_extract(numbers, '$.{key}')"


def into_columns(apps, schema_editor):
    vendor = backend.vendor_of(schema_editor.connection)
    columns = ", ".join(f"count_{i} = {_value(vendor, k)}" for i, k in enumerate(KEYS, 1))
    schema_editor.execute(
        f"UPDATE scoring_matchstanding SET {columns} WHERE numbers IS NOT NULL"
        " AND game IN ('napoleon', 'rettler')"
    )


def into_json(apps, schema_editor):
    vendor = backend.vendor_of(schema_editor.connection)
    build = "jsonb_build_object" if vendor == "postgresql" else "json_object"
    pairs = ", ".join(f"'{k}', count_{i}" for i, k in enumerate(KEYS, 1))
    schema_editor.execute(
        f"UPDATE scoring_matchstanding SET numbers = {build}({pairs}) WHERE count_1 IS NOT NULL"
    )


def _index(schema_editor, covered: str) -> None:
    if backend.vendor_of(schema_editor.connection) == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")
        schema_editor.execute(
            f"CREATE INDEX {INDEX} ON scoring_matchstanding (season_id, game, player_id, night)"
            f" INCLUDE ({covered})"
        )


def cover_counts(apps, schema_editor):
    _index(schema_editor, COVERED + COUNTS)


def uncover_counts(apps, schema_editor):
    _index(schema_editor, COVERED)


def _count(ordinal: str, help_text: str) -> migrations.AddField:
    return migrations.AddField(
        model_name="matchstanding",
        name=f"count_{ordinal}",
        field=models.PositiveIntegerField(help_text=help_text, null=True),
    )


class Migration(migrations.Migration):
    dependencies = [("scoring", "0006_match_lines_by_night")]

    operations = [
        _count("1", "The game's first own count for the player (see COUNTS)."),
        _count("2", "The game's second own count."),
        _count("3", "The game's third own count."),
        _count("4", "The game's fourth own count."),
        migrations.RunPython(into_columns, into_json),
        migrations.RemoveField(model_name="matchstanding", name="numbers"),
        migrations.RunPython(cover_counts, uncover_counts),
    ]
