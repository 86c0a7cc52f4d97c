"""A club night called off, or held after all, is told under the kind "my table is
drawn" (``reach.sources``): its name says so.  The choices' label alone: no row changes."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("reach", "0001_initial"),
    ]

    operations = [
        migrations.AlterField(
            model_name="notice",
            name="kind",
            field=models.CharField(
                choices=[
                    ("drawn", "my table is drawn, or a night called off"),
                    ("pin", "a deal waits for my PIN"),
                    ("correction", "a correction changed my score or rank"),
                    ("closed", "the round or night is closed, with my place"),
                    ("season", "the season is closed"),
                ],
                max_length=12,
            ),
        ),
    ]
