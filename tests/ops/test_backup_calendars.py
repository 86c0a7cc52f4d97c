"""A club's backup keeps its nights' calendar fields (times, called off, sequence, last
change) and its time zone, never a member's secret calendar address (issue 58); an
older file restores as then; a hostile file's values are refused by name."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from actions.calendars import new_token
from tests import worlds
from tournaments.models import Club, ClubNight, Membership

pytestmark = pytest.mark.django_db


def test_a_backup_keeps_the_nights_calendar_and_the_clubs_time_zone_not_the_tokens(tmp_path):
    worlds.demo()
    club = Club.objects.get(slug="kanda")
    club.time_zone = "Europe/London"
    club.save()
    nights = list(ClubNight.objects.filter(season__club=club).order_by("date", "pk"))
    moved, off = nights[0], nights[-1]
    ClubNight.objects.filter(pk=moved.pk).update(
        starts_at=dt.time(18, 30), ends_at=dt.time(1, 15), sequence=3
    )
    ClubNight.objects.filter(pk=off.pk).update(cancelled_at=timezone.now(), sequence=1)
    membership = Membership.objects.filter(club=club).first()
    membership.calendar_token = new_token()
    membership.save()
    fields = ("date", "starts_at", "ends_at", "cancelled_at", "sequence", "changed_at")

    def kept():
        return sorted(
            ClubNight.objects.filter(season__club__slug="kanda").values_list(*fields), key=repr
        )

    before = kept()
    path = tmp_path / "kanda.json"
    call_command("export_club", "kanda", str(path))
    text = path.read_text(encoding="utf-8")
    assert membership.calendar_token not in text and "calendar_token" not in text
    doc = json.loads(text)
    assert doc["club"]["time_zone"] == "Europe/London"
    club.slug, club.name = "kanda-old", "Kanda (old)"
    club.save()
    call_command("import_club", str(path), "--link-all-accounts")
    assert Club.objects.get(slug="kanda").time_zone == "Europe/London"
    assert kept() == before
    assert not Membership.objects.filter(club__slug="kanda").exclude(calendar_token="").exists()


def test_an_older_backup_without_calendar_fields_restores_as_then(tmp_path):
    worlds.demo()
    path = tmp_path / "kanda.json"
    call_command("export_club", "kanda", str(path))
    doc = json.loads(path.read_text(encoding="utf-8"))
    del doc["club"]["time_zone"]
    for season in doc["seasons"]:
        for n in season["club_nights"]:
            for key in ("starts_at", "ends_at", "cancelled_at", "sequence", "changed_at"):
                del n[key]
    doc["club"].update(slug="kanda2", name="Kanda 2")
    path.write_text(json.dumps(doc), encoding="utf-8")
    call_command("import_club", str(path), "--accept-unsigned")
    club = Club.objects.get(slug="kanda2")
    assert club.time_zone == "Asia/Tokyo"
    assert set(
        ClubNight.objects.filter(season__club=club).values_list("sequence", "cancelled_at")
    ) == {(0, None)}


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("starts_at", "25:00", r"starts_at: not a time of day"),
        ("ends_at", 1900, r"ends_at: not a time of day"),
        ("sequence", -1, r"sequence"),
        ("sequence", "x" * 5000, r"sequence: a whole number"),
        ("cancelled_at", "yesterday", r"cancelled_at: not a date and time"),
    ],
)
def test_a_hostile_backups_calendar_fields_are_refused_by_name(tmp_path, key, value, message):
    worlds.demo()
    path = tmp_path / "kanda.json"
    call_command("export_club", "kanda", str(path))
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["club"].update(slug="kanda2", name="Kanda 2")
    doc["seasons"][0]["club_nights"][0][key] = value
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CommandError, match=message):
        call_command("import_club", str(path), "--accept-unsigned")
    assert not Club.objects.filter(slug="kanda2").exists()


def test_a_hostile_backups_time_zone_is_refused(tmp_path):
    worlds.demo()
    path = tmp_path / "kanda.json"
    call_command("export_club", "kanda", str(path))
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["club"].update(slug="kanda2", name="Kanda 2", time_zone="Mars/Olympus")
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(CommandError, match=r"club: time_zone"):
        call_command("import_club", str(path), "--accept-unsigned")
    assert not Club.objects.filter(slug="kanda2").exists()
