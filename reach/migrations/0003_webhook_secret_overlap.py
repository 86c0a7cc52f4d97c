"""A webhook secret made again signs beside the one it replaced for a day (Standard
Webhooks' rotation): the replaced secret and until when it signs.  Existing endpoints
have none."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('reach', '0002_push_kind_night_called_off'),
    ]

    operations = [
        migrations.AddField(
            model_name='endpoint',
            name='previous_secret',
            field=models.CharField(blank=True, default='', help_text='The secret a new one replaced: it signs too until previous_until.', max_length=100),
        ),
        migrations.AddField(
            model_name='endpoint',
            name='previous_until',
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
