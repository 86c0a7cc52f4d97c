from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0031_look_alike_keys_again"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="season",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("best_of__isnull", True),
                    ("ranking__in", ("best_nights", "best_matches")),
                    _connector="OR",
                ),
                name="season_best_of_only_when_counted",
            ),
        ),
    ]
