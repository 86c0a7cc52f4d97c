"""The club's webhooks page (web.pages.webhooks): its administrators add, change, test,
turn off and delete endpoints and see each delivery; nobody else learns a secret or
changes one, and bad input is answered in the reader's language, storing nothing."""

from __future__ import annotations

import base64

import pytest
from django.urls import reverse

from actions import webhooks as webhook_actions
from reach.models import Delivery, Endpoint
from tests.conftest import member_of
from tests.reach import receiver as receivers
from tournaments.models import Club, Membership

pytestmark = pytest.mark.django_db

PUBLIC = "https://93.184.215.14/hooks/clubscore"
"""A public address (no name to resolve: the tests need no DNS)."""


def url(club: Club) -> str:
    return reverse("club_webhooks", args=[club.slug])


@pytest.fixture
def admin_client(client, club_admin):
    client.force_login(club_admin)
    return client


@pytest.fixture
def endpoint(club):
    return Endpoint.objects.create(
        club=club,
        url=PUBLIC,
        description="LINE bot",
        secret="whsec_" + base64.b64encode(b"k" * 32).decode(),
        events=["round.drawn"],
    )


def test_an_administrator_adds_an_endpoint_with_a_fresh_secret(admin_client, club, club_admin):
    response = admin_client.post(
        url(club),
        {
            "new-url": PUBLIC,
            "new-description": "Discord relay",
            "new-events": ["season.closed", "round.drawn"],
        },
    )
    endpoint = Endpoint.objects.get()
    assert response.status_code == 302 and response["Location"].endswith(f"#endpoint-{endpoint.pk}")
    assert endpoint.club == club and endpoint.created_by == club_admin and endpoint.active
    assert endpoint.events == ["round.drawn", "season.closed"]  # in the list's order
    assert endpoint.secret.startswith("whsec_")
    assert len(base64.b64decode(endpoint.secret.removeprefix("whsec_"))) == 32
    page = admin_client.get(url(club)).content.decode()
    assert endpoint.secret in page and "Discord relay" in page
    assert "no-store" in admin_client.get(url(club))["Cache-Control"]


@pytest.mark.parametrize(
    ("sent", "field", "words"),
    [
        ({"new-url": "http://93.184.215.14/h"}, "url", "https:// で始まる"),
        ({"new-url": "https://127.0.0.1/h"}, "url", "プライベート"),
        ({"new-url": "https://169.254.169.254/latest/"}, "url", "プライベート"),
        ({"new-url": "https://[::1]/h"}, "url", "プライベート"),
        ({"new-url": "https://localhost/h"}, "url", "プライベート"),
        ({"new-url": "not a url"}, "url", "URL"),
        ({"new-url": "https://" + "a" * 1000 + ".example/"}, "url", "1000"),
        ({"new-events": ["round.drawn", "shutdown"]}, "events", "一覧の中から"),
        ({"new-events": []}, "events", "少なくとも一つ"),
        ({"new-description": "x" * 201}, "description", "200"),
    ],
)
def test_bad_input_is_answered_in_japanese_and_stores_nothing(
    admin_client, club, settings, sent, field, words
):
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    body = {"new-url": PUBLIC, "new-events": ["round.drawn"], **sent}
    response = admin_client.post(url(club), body, HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 200
    assert words in " ".join(str(e) for e in response.context["form"].errors[field])
    assert Endpoint.objects.count() == 0


def test_a_club_has_at_most_ten_endpoints(admin_client, club, endpoint):
    for _ in range(9):
        Endpoint.objects.create(club=club, url=PUBLIC, secret="whsec_eA==", events=["ping"])
    response = admin_client.post(url(club), {"new-url": PUBLIC, "new-events": ["round.drawn"]})
    assert response.status_code == 200
    assert "at most 10" in response.content.decode()
    assert Endpoint.objects.count() == 10


def test_rotate_turn_off_on_change_events_and_delete(admin_client, club, endpoint):
    old = endpoint.secret
    response = admin_client.post(
        url(club), {"action": "rotate", "endpoint": endpoint.pk}, follow=True
    )
    endpoint.refresh_from_db()
    assert endpoint.secret != old and endpoint.secret.startswith("whsec_")
    page = response.content.decode()
    assert "signed with the old one too" in page  # what was done, and the day it lasts
    assert "signed with the replaced secret too" in page and "data-overlap" in page
    assert endpoint.secret in page and old not in page  # the replaced one is never shown
    assert response.redirect_chain[-1][0].endswith(f"?secret={endpoint.pk}#endpoint-{endpoint.pk}")
    assert '<details class="secret" open>' in page  # the new secret shown, to be copied
    assert "(Asia/Tokyo)" in page  # the overlap's end in the club's time zone
    response = admin_client.post(
        url(club), {"action": "end_previous", "endpoint": endpoint.pk}, follow=True
    )
    page = response.content.decode()
    assert "The old secret signs nothing more." in page and "data-overlap" not in page
    assert '<details class="secret" open>' not in page
    endpoint.refresh_from_db()
    assert (endpoint.previous_secret, endpoint.previous_until) == ("", None)
    admin_client.post(url(club), {"action": "disable", "endpoint": endpoint.pk})
    endpoint.refresh_from_db()
    assert endpoint.active is False
    admin_client.post(url(club), {"action": "ping", "endpoint": endpoint.pk})
    assert Delivery.objects.count() == 0  # a test event needs it on
    admin_client.post(url(club), {"action": "enable", "endpoint": endpoint.pk})
    endpoint.refresh_from_db()
    assert endpoint.active is True
    prefix = f"e{endpoint.pk}-events"
    admin_client.post(
        url(club), {"action": "events", "endpoint": endpoint.pk, prefix: ["night.closed"]}
    )
    endpoint.refresh_from_db()
    assert endpoint.events == ["night.closed"]
    response = admin_client.post(
        url(club), {"action": "events", "endpoint": endpoint.pk, prefix: ["rm -rf"]}, follow=True
    )
    assert "Choose among the events listed." in response.content.decode()
    endpoint.refresh_from_db()
    assert endpoint.events == ["night.closed"]
    admin_client.post(url(club), {"action": "delete", "endpoint": endpoint.pk})
    assert not Endpoint.objects.exists()


def test_a_test_event_is_delivered_and_its_delivery_shown(
    admin_client, club, settings, django_capture_on_commit_callbacks
):
    settings.WEBHOOKS_ALLOW_HTTP = True
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    receiver, server = receivers.start()
    try:
        admin_client.post(url(club), {"new-url": receiver.url, "new-events": ["round.drawn"]})
        endpoint = Endpoint.objects.get()
        receiver.secret = endpoint.secret
        receiver.answers = [503]
        with django_capture_on_commit_callbacks(execute=True):
            admin_client.post(url(club), {"action": "ping", "endpoint": endpoint.pk})
        (got,) = receiver.got
        assert got.verified["type"] == "ping"
        page = admin_client.get(url(club), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
        assert "テストイベント" in page and "503" in page
    finally:
        server.shutdown()
        server.server_close()


def test_another_clubs_endpoint_is_not_reached_through_ones_own_page(
    client, club, endpoint, django_user_model
):
    """An administrator of club B, on club B's page, names club A's endpoint."""
    rival = Club.objects.create(name="Rival", slug="rival")
    boss = member_of(rival, django_user_model, "boss", Membership.Role.ADMIN)
    client.force_login(boss)
    old = endpoint.secret
    webhook_actions.rotate_secret(endpoint)
    old, replaced = endpoint.secret, endpoint.previous_secret
    for action in ("rotate", "end_previous", "disable", "delete", "ping", "events"):
        response = client.post(url(rival), {"action": action, "endpoint": endpoint.pk}, follow=True)
        assert "not one of this club" in response.content.decode()
    endpoint.refresh_from_db()
    assert (endpoint.secret, endpoint.previous_secret, endpoint.active) == (old, replaced, True)
    assert Delivery.objects.count() == 0
    assert old not in client.get(url(rival)).content.decode()


@pytest.mark.parametrize(
    ("who", "status"),
    [("anonymous", 302), ("member", 403), ("scorer", 403), ("other_admin", 404)],
)
def test_only_the_clubs_administrators_see_or_change_it(
    client, club, endpoint, django_user_model, who, status
):
    if who == "member":
        client.force_login(member_of(club, django_user_model, "m", Membership.Role.MEMBER))
    elif who == "scorer":
        client.force_login(member_of(club, django_user_model, "s", Membership.Role.SCORER))
    elif who == "other_admin":
        rival = Club.objects.create(name="Rival", slug="rival")
        client.force_login(member_of(rival, django_user_model, "o", Membership.Role.ADMIN))
    old = endpoint.secret
    got = client.get(url(club))
    assert got.status_code == status and old not in got.content.decode()
    for action in ("rotate", "end_previous", "delete", "ping"):
        assert (
            client.post(url(club), {"action": action, "endpoint": endpoint.pk}).status_code
            == status
        )
    added = client.post(url(club), {"new-url": PUBLIC, "new-events": ["round.drawn"]})
    assert added.status_code == status
    endpoint.refresh_from_db()
    assert endpoint.secret == old and Endpoint.objects.count() == 1
    assert Delivery.objects.count() == 0


def test_the_setup_page_links_it(admin_client, club):
    assert url(club) in admin_client.get(reverse("club_setup", args=[club.slug])).content.decode()
