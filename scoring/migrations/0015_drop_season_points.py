"""The season's plot is no longer stored (issue 60): its pages read each drawn player's
points night by night from the match lines (``scoring.sheets.night_points``), so that
totalling a season writes its leaderboards alone.  Nothing is lost: the points were
made from those lines."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("scoring", "0014_nights_by_club_night"),
    ]

    operations = [
        migrations.DeleteModel(
            name="SeasonPoint",
        ),
    ]
