"""A club always keeps a league administrator (issue 28, 5): on every path that changes a
role, and when two administrators demote each other at the same moment (PostgreSQL)."""

from __future__ import annotations

import pytest
from django.db import connection

from actions import members
from dbtools import backend
from tests.conftest import at_the_same_moment, member_of
from tournaments.errors import Rejection
from tournaments.models import Membership


def admins(club) -> int:
    return Membership.objects.filter(club=club, role="admin").count()


def club_form(club, roles: list[tuple[Membership, str]]) -> dict[str, str]:
    """The Django admin's club form as posted: the club as it is, each membership given
    its new role."""
    form = {
        "name": club.name,
        "slug": club.slug,
        "created_at_0": "2026-01-01",
        "created_at_1": "00:00:00",
        "time_zone": club.time_zone,
        "memberships-TOTAL_FORMS": str(len(roles)),
        "memberships-INITIAL_FORMS": str(len(roles)),
        "memberships-MIN_NUM_FORMS": "0",
        "memberships-MAX_NUM_FORMS": "1000",
    }
    for i, (membership, role) in enumerate(roles):
        form |= {
            f"memberships-{i}-id": str(membership.pk),
            f"memberships-{i}-club": str(club.pk),
            f"memberships-{i}-user": str(membership.user_id),
            f"memberships-{i}-role": role,
        }
    return form


@pytest.mark.django_db
def test_the_add_member_form_cannot_demote_the_last_administrator(client, club, club_admin):
    client.force_login(club_admin)
    client.post(
        f"/clubs/{club.slug}/members/", {"member-username": "clubadmin", "member-role": "member"}
    )
    assert admins(club) == 1
    page = client.get(f"/clubs/{club.slug}/setup/").content.decode()
    assert "keeps at least one league administrator" in page
    mine = Membership.objects.get(user=club_admin)
    client.post(f"/clubs/{club.slug}/members/", {"membership": mine.pk, "role": "scorer"})
    client.post(f"/clubs/{club.slug}/members/", {"membership": mine.pk, "remove": "1"})
    assert admins(club) == 1


@pytest.mark.django_db
def test_the_django_admin_cannot_remove_the_last_administrator(
    client, club, club_admin, league_admin
):
    client.force_login(league_admin)
    mine = Membership.objects.get(user=club_admin)
    form = club_form(club, [(mine, "member")])
    response = client.post(f"/admin/tournaments/club/{club.pk}/change/", form)
    assert (
        response.status_code == 200
        and "keeps at least one league administrator" in response.content.decode()
    )
    assert admins(club) == 1


@pytest.mark.django_db(transaction=True)
def test_two_administrators_demoting_each_other_at_once_leave_one(club, django_user_model):
    if backend.vendor_of(connection) != "postgresql":
        pytest.fail("the race runs on PostgreSQL (make test)")
    for attempt in range(10):
        first = member_of(club, django_user_model, f"first-{attempt}", "admin")
        second = member_of(club, django_user_model, f"second-{attempt}", "admin")
        Membership.objects.filter(club=club).exclude(user__in=[first, second]).delete()
        answers = at_the_same_moment(
            *(lambda u=u: members.set_role(club, u, "member") for u in (first, second))
        )
        refused = [a.errors[0]["code"] for a in answers if isinstance(a, Rejection)]
        assert admins(club) == 1 and refused == ["last_admin"], (attempt, refused)


@pytest.mark.django_db
def test_the_django_admin_checks_again_under_the_clubs_lock_after_saving(
    client, club, club_admin, league_admin, django_user_model, monkeypatch
):
    """The admin's form checks the memberships before saving; another administrator's
    demotion can land between that check and the save.  The save then checks again,
    under the club's lock: refused, nothing of it stays (the other change, made inside
    this request here, rolled back with it), and the form says why, not "changed"."""
    from web.admin.league import MembershipFormSet

    other = member_of(club, django_user_model, "other-admin", "admin")
    checked = MembershipFormSet.clean

    def then_demoted(formset):
        checked(formset)  # passes: the other administrator is still one
        Membership.objects.filter(user=other).update(role="member")

    monkeypatch.setattr(MembershipFormSet, "clean", then_demoted)
    client.force_login(league_admin)
    mine = Membership.objects.get(user=club_admin)
    theirs = Membership.objects.get(user=other)
    form = club_form(club, [(mine, "member"), (theirs, "admin")])
    response = client.post(f"/admin/tournaments/club/{club.pk}/change/", form, follow=True)
    page = response.content.decode()
    assert "keeps at least one league administrator" in page
    assert "was changed successfully" not in page
    assert admins(club) == 2  # as before the save: both rolled back
