"""A club from nothing (issue 29, 1): sign-up with a club, invitations by link, password
reset links; each with what a stranger, a hostile member and another club's
administrator would try."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.utils import timezone

from tests.conftest import at_the_same_moment, member_of
from tournaments import invitations
from tournaments.models import Club, Invitation, Membership, Player

pytestmark = pytest.mark.django_db

NEW = {
    "account-username": "kana",
    "account-email": "",
    "account-password1": "a long pass phrase 2026",
    "account-password2": "a long pass phrase 2026",
}


def test_sign_up_is_closed_unless_the_site_allows_it(client, settings):
    settings.ALLOW_SIGN_UP = False
    assert client.get("/accounts/sign-up/").status_code == 404
    settings.ALLOW_SIGN_UP = True
    assert client.get("/accounts/sign-up/").status_code == 200


def test_a_newcomer_signs_up_and_administers_their_new_club(client, settings):
    settings.ALLOW_SIGN_UP = True
    response = client.post("/accounts/sign-up/", {**NEW, "club-club": "札幌ナポレオン会"})
    club = Club.objects.get(name="札幌ナポレオン会")
    assert response.status_code == 302 and response["Location"] == f"/clubs/{club.slug}/setup/"
    assert club.slug.isascii() and club.slug  # romaji, not an empty slug
    user = User.objects.get(username="kana")
    assert Membership.objects.get(club=club, user=user).role == Membership.Role.ADMIN
    assert client.get(f"/clubs/{club.slug}/setup/").status_code == 200  # signed in


def test_a_refused_sign_up_says_where_and_stores_nothing(client, settings, club):
    settings.ALLOW_SIGN_UP = True
    weak = {**NEW, "account-password1": "kana", "account-password2": "kana"}
    page = client.post("/accounts/sign-up/", {**weak, "club-club": "New club"})
    assert page.status_code == 200 and "This password is too short" in page.content.decode()
    taken = client.post("/accounts/sign-up/", {**NEW, "club-club": "test club"})
    assert "a club of this name exists already" in taken.content.decode()
    assert not User.objects.filter(username="kana").exists()  # the account is not half-made
    assert Club.objects.count() == 1


@pytest.fixture
def admin_client(club, django_user_model):
    user = member_of(club, django_user_model, "lena", Membership.Role.ADMIN)
    client = Client()
    client.force_login(user)
    return client


def _invite(admin_client, club, role="scorer", player=""):
    page = admin_client.post(
        f"/clubs/{club.slug}/invitations/", {"role": role, "player": player}, follow=True
    )
    return re.search(r"/join/([\w-]+)/", page.content.decode()).group(1)


def test_an_invited_person_makes_an_account_and_joins_once(admin_client, club, players):
    token = _invite(admin_client, club, "scorer", players["ben"].pk)
    invited = Client()
    assert "Join Test Club" in invited.get(f"/join/{token}/").content.decode()
    response = invited.post(f"/join/{token}/", NEW)
    assert response.status_code == 302
    user = User.objects.get(username="kana")
    assert Membership.objects.get(club=club, user=user).role == Membership.Role.SCORER
    assert Player.objects.get(pk=players["ben"].pk).user == user
    again = invited.post(f"/join/{token}/", {})  # a double tap: nothing more, no error
    assert again.status_code == 302
    stranger = Client().get(f"/join/{token}/")
    assert stranger.status_code == 410  # used: nobody else joins with it
    assert Membership.objects.filter(club=club).count() == 2


@pytest.mark.django_db(transaction=True)
def test_two_people_following_one_link_at_once_make_one_member(club, django_user_model):
    made = invitations.invite(club, None, Membership.Role.MEMBER)
    one, two = (django_user_model.objects.create_user(n) for n in ("one", "two"))
    answers = at_the_same_moment(
        lambda: invitations.accept(made.token, one), lambda: invitations.accept(made.token, two)
    )
    assert sum(isinstance(a, Membership) for a in answers) == 1
    assert club.memberships.count() == 1


def test_an_invitation_never_lowers_a_role_and_expired_or_revoked_links_fail(
    admin_client, club, django_user_model
):
    boss = member_of(club, django_user_model, "boss", Membership.Role.ADMIN)
    made = invitations.invite(club, None, Membership.Role.MEMBER)
    invitations.accept(made.token, boss)
    assert Membership.objects.get(user=boss).role == Membership.Role.ADMIN
    old = invitations.invite(club, None, Membership.Role.MEMBER)
    Invitation.objects.filter(pk=old.pk).update(expires_at=timezone.now() - dt.timedelta(hours=1))
    assert Client().get(f"/join/{old.token}/").status_code == 410
    token = _invite(admin_client, club, "member")
    pk = Invitation.objects.get(token=token).pk
    admin_client.post(f"/clubs/{club.slug}/invitations/{pk}/revoke/")
    assert Client().post(f"/join/{token}/", NEW).status_code == 410
    assert not User.objects.filter(username="kana").exists()


def test_another_clubs_administrator_can_neither_invite_nor_revoke(club, django_user_model):
    other = Club.objects.create(name="Other", slug="other")
    rival = member_of(other, django_user_model, "rival", Membership.Role.ADMIN)
    made = invitations.invite(club, None, Membership.Role.SCORER)
    client = Client()
    client.force_login(rival)
    # A private club is not even there for them (404, as every page of another club).
    assert client.post(f"/clubs/{club.slug}/invitations/", {"role": "admin"}).status_code == 404
    assert client.post(f"/clubs/{club.slug}/invitations/{made.pk}/revoke/").status_code == 404
    assert client.post(f"/clubs/other/invitations/{made.pk}/revoke/").status_code == 404
    assert Invitation.objects.filter(club=club).count() == 1 and made.usable


def test_a_reset_link_works_once_and_never_for_someone_of_another_club(
    admin_client, club, django_user_model
):
    sam = member_of(club, django_user_model, "sam", Membership.Role.MEMBER)
    page = admin_client.post(
        f"/clubs/{club.slug}/members/{Membership.objects.get(user=sam).pk}/reset-link/",
        follow=True,
    ).content.decode()
    link = re.search(r"http://testserver(/accounts/reset/[^ <\"]+/)", page).group(1)
    person = Client()
    form = person.get(link, follow=True)
    assert form.status_code == 200 and "New password" in form.content.decode()
    done = person.post(
        form.redirect_chain[-1][0],
        {"new_password1": "another long phrase 9", "new_password2": "another long phrase 9"},
    )
    assert done.status_code == 302
    sam.refresh_from_db()
    assert sam.check_password("another long phrase 9")
    assert "no longer works" in Client().get(link, follow=True).content.decode()  # once
    # Someone who is also a member of another club: their account is not this club's to take.
    other = Club.objects.create(name="Other", slug="other")
    Membership.objects.create(club=other, user=sam, role=Membership.Role.ADMIN)
    refused = admin_client.post(
        f"/clubs/{club.slug}/members/{Membership.objects.get(club=club, user=sam).pk}/reset-link/",
        follow=True,
    ).content.decode()
    assert (
        "belongs to a club you do not administer" in refused and "/accounts/reset/" not in refused
    )


def test_a_forgotten_password_by_mail_where_mail_is_set_up(
    client, settings, club, django_user_model
):
    member_of(club, django_user_model, "sam", Membership.Role.MEMBER)
    settings.EMAIL_HOST = ""
    assert "Ask a league administrator" in client.get("/accounts/password/").content.decode()
    settings.EMAIL_HOST = "mail.example.org"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    response = client.post("/accounts/password/", {"email": "sam@example.org"})
    assert response.status_code == 302 and len(mail.outbox) == 1
    assert "/accounts/reset/" in mail.outbox[0].body


def test_the_add_a_member_menu_starts_at_the_least_role(admin_client, club):
    page = admin_client.get(f"/clubs/{club.slug}/setup/").content.decode()
    add = page[page.index('id="id_member-role"') :]
    assert re.search(r'<option value="member" selected>', add[: add.index("</select>")])
    invite = page[page.index('id="id_invite_role"') :]
    assert invite.index('value="member"') < invite.index('value="admin"')
