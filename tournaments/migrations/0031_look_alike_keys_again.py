"""Issue 55: names look alike through accents, punctuation, ``rn`` for ``m`` and more
(``tournaments.names.look_alike``): every club's and account's key made again; and a best
N is kept only by a season ranked by its best N (the others' were never counted)."""

from django.conf import settings
from django.db import migrations

from tournaments.names import look_alike


def keys(apps, schema_editor):
    """Every club's and account's name as it looks now.  Clubs that look alike by the new
    rules keep their names; the later ones' keys are made unique with their id."""
    Club = apps.get_model("tournaments", "Club")
    clubs = list(Club.objects.order_by("pk").values_list("pk", "name"))
    for pk, _name in clubs:  # out of the way first: a key may move to another club's old one
        Club.objects.filter(pk=pk).update(name_key=f"#moving {pk}")
    taken = set()
    for pk, name in clubs:
        key = look_alike(name)
        if key in taken:
            key = f"{key}#{pk}"
        taken.add(key)
        Club.objects.filter(pk=pk).update(name_key=key)
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    AccountName = apps.get_model("tournaments", "AccountName")
    for pk, name in User.objects.values_list("pk", "username").iterator():
        AccountName.objects.update_or_create(user_id=pk, defaults={"key": look_alike(name)})


def best_n_only_when_counted(apps, schema_editor):
    Season = apps.get_model("tournaments", "Season")
    best = ("best_nights", "best_matches")
    Season.objects.exclude(ranking__in=best).exclude(best_of=None).update(best_of=None)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0030_model_names_in_both_languages"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(keys, migrations.RunPython.noop),
        migrations.RunPython(best_n_only_when_counted, migrations.RunPython.noop),
    ]
