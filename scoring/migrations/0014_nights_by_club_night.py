"""A night is its own key (issue 56): the match lines, the plot's points and the rating
history key on the club night (``club_night``), no longer on its date, so that two club
nights on one date (an afternoon and an evening, a last round and the final) are two
nights in the qualifying counts, best N, the plots and the ratings.

What is kept is carried over, not thrown away:

- **match lines**: each gets its match's night (every one exactly: a match has one);
- **plot points**: of a season with one night a date, each gets that night (the numbers
  are the same); of a season with two nights on one date they are deleted and the season's
  fingerprint is forgotten, so that ``manage.py rebuild_standings`` totals it again (its
  lines' night counts, best N and qualifying change too: they are what was wrong);
- **rating history**: of a club with one night a date, each row gets that night (the
  rating order of its deals is the same); of a club with two nights on one date (in any of
  its seasons) the rows are deleted and the club's ratings fingerprint forgotten, so that
  the rebuild replays its ratings from the first deal in the new order (by date, then
  night).

A site whose clubs never had two nights on one date needs no rebuild for this."""

import django.db.models.deletion
from dbtools import backend
from django.db import migrations, models

INDEX = "match_line_by_night"
COVERED = "points, scored, deals_won, finished, rank, top_half, last_place, " + ", ".join(
    f"count_{i}" for i in range(1, 21)
)


def _collided(ClubNight, *by):
    """The seasons (or clubs) that have two nights on one date."""
    rows = ClubNight.objects.order_by().values(*by, "date").annotate(n=models.Count("id"))
    return sorted({row[by[0]] for row in rows.filter(n__gt=1)})


def carry(apps, schema_editor):
    ClubNight = apps.get_model("tournaments", "ClubNight")
    Fingerprint = apps.get_model("scoring", "Fingerprint")
    SeasonPoint = apps.get_model("scoring", "SeasonPoint")
    RatingHistory = apps.get_model("scoring", "RatingHistory")
    postgresql = backend.vendor_of(schema_editor.connection) == "postgresql"
    with schema_editor.connection.cursor() as cursor:
        if postgresql:  # the rows' new keys checked now: the columns change further down
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(
                "UPDATE scoring_matchstanding ms SET club_night_id = t.club_night_id"
                "  FROM tournaments_match m JOIN tournaments_table t ON t.id = m.table_id"
                " WHERE m.id = ms.match_id"
            )
        else:
            cursor.execute(
                "UPDATE scoring_matchstanding SET club_night_id = ("
                " SELECT t.club_night_id FROM tournaments_match m"
                "   JOIN tournaments_table t ON t.id = m.table_id"
                "  WHERE m.id = scoring_matchstanding.match_id)"
            )
        seasons = _collided(ClubNight, "season_id")
        clubs = _collided(ClubNight, "season__club_id")
        cursor.execute(
            "UPDATE scoring_seasonpoint SET club_night_id = ("
            " SELECT n.id FROM tournaments_clubnight n"
            "  WHERE n.season_id = scoring_seasonpoint.season_id"
            "    AND n.date = scoring_seasonpoint.night"
            "  ORDER BY n.id LIMIT 1)"
        )
        cursor.execute(
            "UPDATE scoring_ratinghistory SET club_night_id = ("
            " SELECT n.id FROM tournaments_clubnight n"
            "   JOIN tournaments_season s ON s.id = n.season_id"
            "   JOIN tournaments_player p ON p.club_id = s.club_id"
            "  WHERE p.id = scoring_ratinghistory.player_id"
            "    AND n.date = scoring_ratinghistory.night"
            "  ORDER BY n.id LIMIT 1)"
        )
        if postgresql:
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
    points = SeasonPoint.objects.filter(
        models.Q(season_id__in=seasons) | models.Q(club_night__isnull=True)
    )
    seasons = sorted(set(seasons) | set(points.values_list("season_id", flat=True)))
    points.delete()
    Fingerprint.objects.filter(kind="season", of__in=seasons).delete()
    history = RatingHistory.objects.filter(
        models.Q(player__club_id__in=clubs) | models.Q(club_night__isnull=True)
    )
    clubs = sorted(set(clubs) | set(history.values_list("player__club_id", flat=True)))
    history.delete()
    Fingerprint.objects.filter(kind="ratings", of__in=clubs).delete()


def dates_back(apps, schema_editor):
    """Back (a migration undone): the match lines get their night's date again; the plot's
    points and the rating history, which two nights on one date would now collide in, are
    deleted and every fingerprint forgotten: the next rebuild makes them again."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "UPDATE scoring_matchstanding SET night = ("
            " SELECT n.date FROM tournaments_clubnight n"
            "  WHERE n.id = scoring_matchstanding.club_night_id)"
        )
    for name in ("SeasonPoint", "RatingHistory", "Fingerprint"):
        apps.get_model("scoring", name).objects.all().delete()


def drop_index(apps, schema_editor):
    if backend.vendor_of(schema_editor.connection) == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


def create_index_by_date(apps, schema_editor):
    """Back: the covering index as 0011 made it, on the night's date."""
    if backend.vendor_of(schema_editor.connection) == "postgresql":
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {INDEX} ON scoring_matchstanding"
            f" (season_id, game, player_id, night) INCLUDE ({COVERED})"
        )


def create_index(apps, schema_editor):
    """The season totals' covering index (0006, 0011), on the night instead of its date."""
    if backend.vendor_of(schema_editor.connection) == "postgresql":
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {INDEX} ON scoring_matchstanding"
            f" (season_id, game, player_id, club_night_id) INCLUDE ({COVERED})"
        )


def night_field(**more):
    return models.ForeignKey(
        db_index=False,
        on_delete=django.db.models.deletion.CASCADE,
        related_name="+",
        to="tournaments.clubnight",
        **more,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0013_season_files"),
        ("tournaments", "0034_club_night_name"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="seasonpoint", name="season_point_unique"),
        migrations.RemoveConstraint(model_name="ratinghistory", name="rating_history_per_night"),
        migrations.AddField(
            model_name="matchstanding", name="club_night", field=night_field(null=True)
        ),
        migrations.AddField(
            model_name="seasonpoint", name="club_night", field=night_field(null=True)
        ),
        migrations.AddField(
            model_name="ratinghistory", name="club_night", field=night_field(null=True)
        ),
        migrations.RunPython(carry, migrations.RunPython.noop),
        migrations.RunPython(drop_index, create_index_by_date),
        # Nullable before they go, so that going back adds them empty and fills them.
        migrations.AlterField(
            model_name="matchstanding", name="night", field=models.DateField(null=True)
        ),
        migrations.AlterField(
            model_name="seasonpoint", name="night", field=models.DateField(null=True)
        ),
        migrations.AlterField(
            model_name="ratinghistory", name="night", field=models.DateField(null=True)
        ),
        migrations.RunPython(migrations.RunPython.noop, dates_back),
        migrations.RemoveField(model_name="matchstanding", name="night"),
        migrations.RemoveField(model_name="seasonpoint", name="night"),
        migrations.RemoveField(model_name="ratinghistory", name="night"),
        migrations.AlterField(
            model_name="matchstanding",
            name="club_night",
            field=night_field(help_text="The match's club night."),
        ),
        migrations.AlterField(model_name="seasonpoint", name="club_night", field=night_field()),
        migrations.AlterField(
            model_name="ratinghistory",
            name="club_night",
            field=night_field(
                help_text="The club night (ratings are replayed by night: by date, then night)."
            ),
        ),
        migrations.AlterField(
            model_name="seasonpoint",
            name="ordinal",
            field=models.PositiveIntegerField(
                help_text="The night's place in the season's game, from 1, by date then night."
            ),
        ),
        migrations.AlterModelOptions(
            name="seasonpoint", options={"ordering": ["season", "game", "player", "ordinal"]}
        ),
        migrations.AlterModelOptions(
            name="ratinghistory",
            options={"ordering": ["player", "game", "club_night__date", "club_night_id"]},
        ),
        migrations.AddConstraint(
            model_name="seasonpoint",
            constraint=models.UniqueConstraint(
                fields=("season", "game", "player", "club_night"), name="season_point_unique"
            ),
        ),
        migrations.AddConstraint(
            model_name="ratinghistory",
            constraint=models.UniqueConstraint(
                fields=("player", "game", "scope", "club_night"), name="rating_history_per_night"
            ),
        ),
        migrations.RunPython(create_index, drop_index),
    ]
