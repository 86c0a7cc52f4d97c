"""A season line's own counts in number columns, as a match line's are (0011), not
JSON: the season statement sums them into columns and compares numbers, instead of
building and comparing an object per line (at 1,000,000 deals half of its time).  The
counts kept as JSON are not moved: the seasons' fingerprints are forgotten (and 0011
marked every match unchecked), so the next rebuild writes every season line again."""

from django.db import migrations, models


def forget_seasons(apps, schema_editor):
    apps.get_model("scoring", "Fingerprint").objects.filter(kind="season").delete()


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0011_match_line_statistics'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='seasonstanding',
            name='numbers',
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_1',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_10',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_11',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_12',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_13',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_14',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_15',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_16',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_17',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_18',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_19',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_2',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_20',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_3',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_4',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_5',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_6',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_7',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_8',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='seasonstanding',
            name='count_9',
            field=models.IntegerField(null=True),
        ),
        migrations.RunPython(forget_seasons, migrations.RunPython.noop),
    ]
