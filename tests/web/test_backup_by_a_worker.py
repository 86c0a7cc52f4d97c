"""A club's backup made by a worker and downloaded from the club's page (issue 39): no web
request waits for it, it is made once however often it is asked for, and it is for the
club's league administrators when it is downloaded, not only when it was asked for."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from ops.backup import signed
from scoring import jobs
from scoring.models import Export
from tournaments.models import ClubNight, Deal, Membership

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(match):
    """The club's night with a match of two deals."""
    import actions.deals
    from tests.conftest import napoleon_deal

    actions.deals.enter_deal(match, napoleon_deal()).stored()
    actions.deals.enter_deal(match, napoleon_deal(declarer="ben", adjutant="dai")).stored()
    return match


def test_the_backup_is_made_by_a_worker_and_downloaded(
    admin, played, django_capture_on_commit_callbacks
):
    club = played.table.club_night.season.club
    with django_capture_on_commit_callbacks(execute=True) as handed:
        asked = admin.post(f"/clubs/{club.slug}/exports/backup/")
    assert len(handed) == 1  # the worker's task, handed over after the commit
    export = Export.objects.get()
    assert asked.status_code == 302 and asked["Location"] == f"/exports/{export.pk}/"
    assert export.status == Export.Status.DONE
    assert export.done == export.steps == ClubNight.objects.filter(season__club=club).count()
    page = admin.get(f"/exports/{export.pk}/").content.decode()
    assert 'id="download"' in page and 'http-equiv="refresh"' not in page
    answer = admin.get(f"/exports/{export.pk}/file")
    assert answer["Content-Disposition"] == f'attachment; filename="{export.name}"'
    document = json.loads(answer.content)
    assert signed(document) and document["club"]["slug"] == club.slug
    deals = [
        deal
        for season in document["seasons"]
        for night in season["club_nights"]
        for table in night["tables"]
        for match in table["matches"]
        for deal in match["deals"]
    ]
    assert len(deals) == Deal.objects.filter(match=played).count() == 2
    setup = admin.get(f"/clubs/{club.slug}/setup/").content.decode()
    assert f'href="/exports/{export.pk}/file"' in setup


def test_asked_again_while_it_is_made_it_is_made_once(admin, played):
    club = played.table.club_night.season.club
    for _ in range(3):  # a second tap, a retried request: no commit hook runs here
        assert admin.post(f"/clubs/{club.slug}/exports/backup/").status_code == 302
    export = Export.objects.get()
    assert export.status == Export.Status.WAITING
    page = admin.get(f"/exports/{export.pk}/").content.decode()
    assert 'http-equiv="refresh"' in page and "Waiting for a worker" in page
    assert admin.get(f"/exports/{export.pk}/file").status_code == 404  # not made yet
    jobs.make(export.pk)
    jobs.make(export.pk)  # delivered twice: made once
    export.refresh_from_db()
    assert export.status == Export.Status.DONE
    assert admin.post(f"/clubs/{club.slug}/exports/backup/").status_code == 302
    assert Export.objects.count() == 2  # asked again once done: a new one


def test_the_right_is_checked_when_the_file_is_downloaded(
    admin, played, django_user_model, django_capture_on_commit_callbacks
):
    club = played.table.club_night.season.club
    with django_capture_on_commit_callbacks(execute=True):
        admin.post(f"/clubs/{club.slug}/exports/backup/")
    export = Export.objects.get()
    lena = Membership.objects.filter(user__username="lena", club=club)
    lena.update(role=Membership.Role.MEMBER)
    assert admin.get(f"/exports/{export.pk}/file").status_code == 403  # demoted since
    assert admin.get(f"/exports/{export.pk}/").status_code == 403
    stranger = django_user_model.objects.create_user("stranger", password="stranger-pass-1")
    other = Client()
    other.force_login(stranger)
    assert other.get(f"/exports/{export.pk}/file").status_code == 404
    assert other.post(f"/clubs/{club.slug}/exports/backup/").status_code == 404
    assert Client().get(f"/exports/{export.pk}/file").status_code == 302  # sign in first
    lena.update(role=Membership.Role.ADMIN)
    assert admin.post(f"/clubs/{club.slug}/exports/nothing/").status_code == 404
    assert Export.objects.count() == 1  # refusals store nothing


def test_a_failed_export_says_so_and_can_be_asked_again(admin, played, monkeypatch):
    club = played.table.club_night.season.club

    def broken(club, progress):
        progress(1, 4)
        raise RuntimeError("disk full")

    monkeypatch.setitem(jobs.KINDS, "broken", jobs.Kind("Broken", "Break it", broken))
    admin.post(f"/clubs/{club.slug}/exports/broken/")
    export = Export.objects.get()
    with pytest.raises(RuntimeError):
        jobs.make(export.pk)
    export.refresh_from_db()
    assert export.status == Export.Status.FAILED and export.done == 1
    page = admin.get(f"/exports/{export.pk}/").content.decode()
    assert "could not be made" in page and 'http-equiv="refresh"' not in page
    admin.post(f"/clubs/{club.slug}/exports/broken/")
    assert Export.objects.filter(status=Export.Status.WAITING).count() == 1


def test_a_refusal_says_why_in_the_readers_language(
    admin, played, django_capture_on_commit_callbacks
):
    club = played.table.club_night.season.club
    with django_capture_on_commit_callbacks(execute=True):
        admin.post(f"/clubs/{club.slug}/exports/backup/")
    export = Export.objects.get()
    Membership.objects.filter(user__username="lena", club=club).update(role=Membership.Role.MEMBER)
    admin.cookies["django_language"] = "ja"
    refused = admin.get(f"/exports/{export.pk}/file")
    assert refused.status_code == 403
    assert "リーグ管理者" in refused.content.decode()
