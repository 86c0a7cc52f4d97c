"""A club night's optional short name (issue 56): two nights on one date (an afternoon and
an evening, a last round and the final) are named apart wherever a night is listed
(``tournaments.names.night_label``); nights on one date list the later made first."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0033_link_scorers"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="clubnight",
            options={
                "ordering": ["-date", "-id"],
                "verbose_name": "club night",
                "verbose_name_plural": "club nights",
            },
        ),
        migrations.AddField(
            model_name="clubnight",
            name="name",
            field=models.CharField(
                blank=True,
                default="",
                help_text="Optional: a short name that tells this night from another on the same date (Afternoon, Final).",
                max_length=40,
            ),
        ),
    ]
