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

from actions import invitations
from tests.conftest import at_the_same_moment, member_of
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
    assert "this name is taken, or looks like a name that is" in taken.content.decode()
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
    body = mail.outbox[0].body  # plain text: a line each, a blank line between paragraphs
    assert body.startswith("Someone asked to set a new password for your Clubscore account sam")
    lines = body.splitlines()
    assert lines[1] == "" and lines[3].startswith("http://testserver/accounts/reset/")


def test_the_add_a_member_menu_starts_at_the_least_role(admin_client, club):
    page = admin_client.get(f"/clubs/{club.slug}/setup/").content.decode()
    add = page[page.index('id="id_member-role"') :]
    assert re.search(r'<option value="member" selected>', add[: add.index("</select>")])
    invite = page[page.index('id="id_invite_role"') :]
    assert invite.index('value="member"') < invite.index('value="admin"')


def _reset_link(maker_client: Client, club: Club, account) -> str:
    membership = Membership.objects.get(club=club, user=account)
    page = maker_client.post(
        f"/clubs/{club.slug}/members/{membership.pk}/reset-link/", follow=True
    ).content.decode()
    return re.search(r"http://testserver(/accounts/reset/club/[^ <\"]+/)", page).group(1)


def _opens(link: str) -> bool:
    return 'name="new_password1"' in Client().get(link, follow=True).content.decode()


def test_a_reset_link_is_checked_again_when_it_is_used(club, django_user_model):
    """The right to make the link is the maker's now, over the account's rights now."""
    maker = member_of(club, django_user_model, "lena", Membership.Role.ADMIN)
    member_of(club, django_user_model, "kai", Membership.Role.ADMIN)  # the club keeps one
    sam = member_of(club, django_user_model, "sam", Membership.Role.MEMBER)
    admin = Client()
    admin.force_login(maker)
    link = _reset_link(admin, club, sam)
    assert _opens(link)
    # Sam becomes another club's administrator: the link is not this club's to use now.
    other = Club.objects.create(name="Other", slug="other")
    joined = Membership.objects.create(club=other, user=sam, role=Membership.Role.ADMIN)
    assert not _opens(link)
    joined.delete()
    # A change the maker may still reset after (member to scorer) ends the link as well:
    # its hash covers the account's roles.
    link = _reset_link(admin, club, sam)
    Membership.objects.filter(club=club, user=sam).update(role=Membership.Role.SCORER)
    assert not _opens(link)
    # The maker loses the club: a fresh link of theirs stops working too.
    link = _reset_link(admin, club, sam)
    assert _opens(link)
    Membership.objects.filter(club=club, user=maker).update(role=Membership.Role.MEMBER)
    assert not _opens(link)


def test_a_reset_link_refused_between_opening_and_setting_sets_nothing(club, django_user_model):
    maker = member_of(club, django_user_model, "lena", Membership.Role.ADMIN)
    sam = member_of(club, django_user_model, "sam", Membership.Role.MEMBER)
    admin = Client()
    admin.force_login(maker)
    person = Client()
    form = person.get(_reset_link(admin, club, sam), follow=True)
    Membership.objects.filter(club=club, user=sam).update(role=Membership.Role.SCORER)
    new = {"new_password1": "another long phrase 9", "new_password2": "another long phrase 9"}
    person.post(form.redirect_chain[-1][0], new)
    sam.refresh_from_db()
    assert sam.check_password("sam-pass-1")


def test_a_reset_link_is_short_lived(club, django_user_model, monkeypatch, settings):
    from actions import reset_links

    maker = member_of(club, django_user_model, "lena", Membership.Role.ADMIN)
    sam = member_of(club, django_user_model, "sam", Membership.Role.MEMBER)
    admin = Client()
    admin.force_login(maker)
    link = _reset_link(admin, club, sam)
    later = dt.datetime.now() + dt.timedelta(seconds=settings.RESET_LINK_SECONDS + 60)
    monkeypatch.setattr(reset_links._MadeBy, "_now", lambda self: later)
    assert not _opens(link)
    monkeypatch.undo()
    assert _opens(link)


def test_a_reset_ends_the_accounts_sessions_and_api_tokens(club, django_user_model):
    from rest_framework.authtoken.models import Token

    maker = member_of(club, django_user_model, "lena", Membership.Role.ADMIN)
    sam = member_of(club, django_user_model, "sam", Membership.Role.MEMBER)
    token = Token.objects.create(user=sam)
    thief = Client()
    thief.force_login(sam)
    admin = Client()
    admin.force_login(maker)
    person = Client()
    form = person.get(_reset_link(admin, club, sam), follow=True)
    new = {"new_password1": "another long phrase 9", "new_password2": "another long phrase 9"}
    assert person.post(form.redirect_chain[-1][0], new).status_code == 302
    assert not Token.objects.filter(key=token.key).exists()
    assert Client().get("/api/clubs/", HTTP_AUTHORIZATION=f"Token {token.key}").status_code in (
        401,
        403,
    )
    assert "_auth_user_id" not in thief.get("/").wsgi_request.session


def test_an_invitation_for_a_player_binds_one_person(admin_client, club, players):
    first = _invite(admin_client, club, "member", players["ben"].pk)
    second = _invite(admin_client, club, "member", players["chika"].pk)
    collector = Client()
    collector.post(f"/join/{first}/", NEW)
    kana = User.objects.get(username="kana")
    refused = collector.post(f"/join/{second}/", follow=True).content.decode()
    assert "your account is the player Ben of this club already" in refused
    assert list(Player.objects.filter(user=kana)) == [players["ben"]]
    assert Invitation.objects.get(token=second).usable  # still Chika's to use
    # A player with an account gets no invitation: the administrator is told so.
    told = admin_client.post(
        f"/clubs/{club.slug}/invitations/",
        {"role": "member", "player": players["ben"].pk},
        follow=True,
    ).content.decode()
    assert "Ben has an account already" in told
    assert not Invitation.objects.filter(player=players["ben"], used_at__isnull=True).exists()


def test_an_account_is_linked_to_one_player_of_a_club_on_the_players_page(
    admin_client, club, players, django_user_model
):
    sam = member_of(club, django_user_model, "sam", Membership.Role.MEMBER)
    players["ben"].user = sam
    players["ben"].save()
    edit = {
        "display_name": "Chika",
        "name_ja": "",
        "handle": "chika",
        "account": "sam",
        "new_pin": "",
    }
    page = admin_client.post(f"/clubs/{club.slug}/players/{players['chika'].pk}/", edit)
    assert "sam is the player Ben already" in page.content.decode()
    django_user_model.objects.create_user("outsider")
    page = admin_client.post(
        f"/clubs/{club.slug}/players/{players['chika'].pk}/", {**edit, "account": "outsider"}
    )
    assert "outsider is not a member of the club" in page.content.decode()
    assert Player.objects.get(pk=players["chika"].pk).user is None


def test_an_invitation_with_a_player_id_of_five_thousand_digits_is_refused_in_words(
    admin_client, club
):
    answer = admin_client.post(
        f"/clubs/{club.slug}/invitations/", {"role": "member", "player": "9" * 5000}, follow=True
    )
    assert answer.status_code == 200 and "no such player in this club" in answer.content.decode()
    assert not Invitation.objects.exists()


def test_the_api_links_an_account_to_one_player_of_a_club_too(club, players, django_user_model):
    from tests.conftest import client_of

    admin = member_of(club, django_user_model, "lena", Membership.Role.ADMIN)
    sam = member_of(club, django_user_model, "sam", Membership.Role.MEMBER)
    players["ben"].user = sam
    players["ben"].save()
    answer = client_of(admin).patch(
        f"/api/players/{players['chika'].pk}/", {"user": sam.pk}, format="json"
    )
    assert answer.status_code == 400 and answer.json()["errors"]
    assert Player.objects.get(pk=players["chika"].pk).user is None


def test_the_password_rules_are_shown_before_a_refusal(client, settings, club, admin_client):
    settings.ALLOW_SIGN_UP = True
    for page in (
        client.get("/accounts/sign-up/"),
        client.get(f"/join/{_invite(admin_client, club)}/"),
    ):
        text = page.content.decode()
        assert "at least 8 characters" in text and "entirely numeric" in text
    client.cookies["django_language"] = "ja"
    assert "8 文字以上" in client.get("/accounts/sign-up/").content.decode()


def test_an_account_is_checked_again_by_the_action_whatever_form_sent_it(django_user_model):
    """``actions.accounts.make_account`` checks what the sign-up form checks, so no way in
    can skip it: a name that looks like a taken one, a name the user model refuses, an
    e-mail address that is none and a weak password are refused, where, in the reader's
    language (the action runs in their request's), and nothing is made."""
    from django.utils import translation

    from actions import accounts
    from tournaments.errors import Rejection
    from tournaments.messages import localize

    accounts.make_account("mina", "", "a-long-pass-2026")
    strong = "another-pass-2026"
    for username, email, password, path in [
        ("MINA", "", strong, "username"),  # looks like mina
        ("mi na!", "", strong, "username"),
        ("kenji", "not an address", strong, "email"),
        ("kenji", "", "123", "password"),
        ("kenji", "", "kenji", "password"),  # like the name, short
    ]:
        with translation.override("ja"), pytest.raises(Rejection) as refused:
            accounts.make_account(username, email, password)  # in a Japanese reader's request
        (problem,) = refused.value.errors
        assert problem["path"] == path, (username, email, password, problem)
        with translation.override("ja"):
            assert not localize(problem).isascii(), problem
    assert list(django_user_model.objects.values_list("username", flat=True)) == ["mina"]
    made = accounts.make_account("kenji", "kenji@example.org", strong)
    assert made.check_password(strong) and made.email == "kenji@example.org"
