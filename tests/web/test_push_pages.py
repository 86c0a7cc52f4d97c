"""Turning push messages on from "my night" and a player's page (issue 58, 1): what is
stored, with which right, in which language, and every hostile attempt refused in words
with nothing stored: another club's player, a private season's player to an anonymous
phone, an endpoint on loopback, a private network or plain http, keys of the wrong size,
a huge body, no CSRF token."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from actions import table_links as link_actions
from reach import vapid
from reach.models import Notice, PushKind, Subscription
from reach.rights import link_hash
from tests.conftest import member_of
from tests.reach.push_service import Phone, b64url
from tests.web.test_my_night import drawn_tonight
from tournaments.models import Club, Match, Player, Season

pytestmark = pytest.mark.django_db

ALL = [k.value for k in PushKind]


@pytest.fixture(autouse=True)
def keys():
    vapid.key.cache_clear()
    yield
    vapid.key.cache_clear()


@pytest.fixture
def tonight():
    return drawn_tonight()


def phone_of(endpoint: str = "https://push.example.net/send/abc") -> dict:
    """A browser's PushSubscription.toJSON() (its keys made here)."""
    from cryptography.hazmat.primitives.asymmetric import ec

    return Phone(endpoint, ec.generate_private_key(ec.SECP256R1()), b"k" * 16).json()


@pytest.fixture
def resolves(monkeypatch, settings):
    """push.example.net is a push service at a public address (this machine has no DNS)."""
    import socket

    settings.PUSH_SERVICES = ["push.example.net"]

    real = socket.getaddrinfo

    def fake(host, port, *args, **kwargs):
        if host == "push.example.net":
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", port))]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", fake)


def post(client: Client, url: str, body: dict, **extra):
    return client.post(url, json.dumps(body), content_type="application/json", **extra)


def holding_the_link(match: Match) -> Client:
    phone = Client()
    token = link_actions.ensure(match.table)
    assert phone.get(f"/t/{token}/").status_code == 302
    return phone


def test_a_link_holder_turns_it_on_for_their_night_in_japanese(tonight, resolves):
    night, people, drawn = tonight
    match = Match.objects.filter(table__round=drawn).order_by("table__name").first()
    me = match.seated_players()[0]
    phone = holding_the_link(match)
    phone.cookies["django_language"] = "ja"
    page = phone.get(f"/nights/{night.pk}/me/", {"player": me.pk}).content.decode()
    assert 'id="push"' in page and vapid.application_server_key() in page
    assert "この端末に通知" in page
    browser = phone_of()
    answer = post(
        phone,
        f"/nights/{night.pk}/push/",
        {
            "action": "on",
            "player": me.pk,
            "subscription": browser,
        },
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["on"] is True and answer.json()["kinds"] == ALL
    sub = Subscription.objects.get()
    assert (sub.player, sub.user, sub.table, sub.night) == (me, None, match.table, night)
    assert sub.link == link_hash(match.table.link_token) and sub.language == "ja"
    assert sub.endpoint == browser["endpoint"] and sub.p256dh == browser["keys"]["p256dh"]

    # Sent again (a double tap): stored once; then fewer kinds; then asked; then off.
    post(
        phone,
        f"/nights/{night.pk}/push/",
        {"action": "on", "player": me.pk, "subscription": browser},
    )
    answer = post(
        phone,
        f"/nights/{night.pk}/push/",
        {
            "action": "on",
            "player": me.pk,
            "subscription": browser,
            "kinds": ["pin", "drawn"],
        },
    )
    assert answer.json()["kinds"] == ["drawn", "pin"]
    assert Subscription.objects.get().kinds == ["drawn", "pin"]
    state = post(
        phone,
        f"/nights/{night.pk}/push/",
        {
            "action": "state",
            "player": me.pk,
            "subscription": browser,
        },
    )
    assert state.json() == {"on": True, "kinds": ["drawn", "pin"]}
    off = post(
        phone,
        f"/nights/{night.pk}/push/",
        {
            "action": "off",
            "player": me.pk,
            "subscription": browser,
        },
    )
    assert off.status_code == 200 and not Subscription.objects.exists()


def test_a_member_follows_from_the_players_page(tonight, resolves, django_user_model):
    night, people, drawn = tonight
    member = member_of(night.season.club, django_user_model, "mika", "member")
    client = Client()
    client.force_login(member)
    page = client.get(f"/players/{people[3].pk}/").content.decode()
    assert 'id="push"' in page and f'data-url="/players/{people[3].pk}/push/"' in page
    answer = post(
        client,
        f"/players/{people[3].pk}/push/",
        {
            "action": "on",
            "subscription": phone_of(),
            "kinds": ["season"],
        },
    )
    assert answer.status_code == 200
    sub = Subscription.objects.get()
    assert (sub.player, sub.user, sub.table, sub.kinds) == (people[3], member, None, ["season"])
    # The same member on "my night": the account is the right, not a link.
    answer = post(
        client,
        f"/nights/{night.pk}/push/",
        {
            "action": "on",
            "player": people[4].pk,
            "subscription": phone_of(),
        },
    )
    assert answer.status_code == 200
    assert Subscription.objects.get(player=people[4]).user == member


def test_hostile_attempts_are_refused_in_words_and_store_nothing(
    tonight, resolves, django_user_model, settings
):
    settings.PUSH_ALLOW_PRIVATE_ENDPOINTS = False
    night, people, drawn = tonight
    match = Match.objects.filter(table__round=drawn).order_by("table__name").first()
    me = match.seated_players()[0]
    rival = Club.objects.create(name="Rival", slug="rival")
    theirs = Player.objects.create(club=rival, handle="r1", display_name="Rival One")
    phone = holding_the_link(match)
    url = f"/nights/{night.pk}/push/"

    def refused(body, client=phone, to=url, status=400):
        answer = (
            post(client, to, body)
            if isinstance(body, dict)
            else client.post(to, body, content_type="application/json")
        )
        assert answer.status_code == status, (body, answer.content)
        if status == 400:
            assert answer.json()["error"]
        return answer

    good = phone_of()
    refused({"action": "on", "player": theirs.pk, "subscription": good})  # another club's
    refused({"action": "on", "player": 10**20, "subscription": good})
    refused({"action": "on", "player": {"a": 1}, "subscription": good})
    for endpoint in (
        "http://127.0.0.1:9/push",  # loopback, plain http
        "https://127.0.0.1/push",  # loopback
        "https://localhost/push",
        "https://10.0.0.8/push",  # a private network
        "https://169.254.169.254/latest/meta-data",  # a cloud's metadata service
        "https://[::1]/push",
        "https://[::ffff:127.0.0.1]/push",
        "http://push.example.net/send/abc",  # plain http
        "ftp://push.example.net/x",
        "https://user:pw@push.example.net/x",
        "https://push.example.net/" + "a" * 1000,
        "https://hooks.example.org/push",  # a public server, not a push service
        "https://evilpush.example.net/send/abc",  # a name that merely ends alike
        "https://push.example.net.example.org/send/abc",
        "",
        None,
    ):
        answer = refused({"action": "on", "player": me.pk, "subscription": phone_of(endpoint)})
        assert "push" in answer.json()["error"] or "subscription" in answer.json()["error"]
    bad_keys = [
        {"p256dh": good["keys"]["p256dh"][:-4], "auth": good["keys"]["auth"]},  # short
        {"p256dh": "B" + "A" * 86, "auth": good["keys"]["auth"]},  # not on the curve
        {"p256dh": good["keys"]["p256dh"], "auth": b64url(b"k" * 15)},
        {"p256dh": good["keys"]["p256dh"], "auth": "!!!!"},
        {"p256dh": 5, "auth": None},
    ]
    for keys in bad_keys:
        refused({"action": "on", "player": me.pk, "subscription": {**good, "keys": keys}})
    refused({"action": "on", "player": me.pk, "subscription": good, "kinds": ["everything"]})
    refused({"action": "on", "player": me.pk, "subscription": good, "kinds": "drawn"})
    refused({"action": "explode", "player": me.pk, "subscription": good})
    refused({"action": "on", "player": me.pk, "subscription": "x" * 5000})  # huge body
    refused("[1, 2" + ", 3" * 3000 + "]")
    refused("not json")
    assert phone.post(url, {"action": "on"}).status_code == 400  # a form, not JSON

    # A private season's player and night, to an anonymous phone with no link: nothing.
    anonymous = Client()
    refused({"action": "on", "player": me.pk, "subscription": good}, client=anonymous, status=404)
    refused(
        {"action": "on", "subscription": good},
        client=anonymous,
        to=f"/players/{me.pk}/push/",
        status=404,
    )
    # Another club's signed-in administrator: the night and the player do not exist.
    stranger = member_of(rival, django_user_model, "boss", "admin")
    other = Client()
    other.force_login(stranger)
    refused({"action": "on", "player": me.pk, "subscription": good}, client=other, status=404)
    refused(
        {"action": "on", "subscription": good},
        client=other,
        to=f"/players/{me.pk}/push/",
        status=404,
    )
    # A revoked link: the night is no more this phone's.
    link_actions.revoke(match.table)
    refused({"action": "on", "player": me.pk, "subscription": good}, status=404)
    assert not Subscription.objects.exists()


def test_a_post_without_the_csrf_token_is_refused(tonight, resolves):
    night, people, drawn = tonight
    match = Match.objects.filter(table__round=drawn).order_by("table__name").first()
    phone = Client(enforce_csrf_checks=True)
    token = link_actions.ensure(match.table)
    phone.get(f"/t/{token}/")
    answer = post(
        phone,
        f"/nights/{night.pk}/push/",
        {
            "action": "on",
            "player": match.seated_players()[0].pk,
            "subscription": phone_of(),
        },
    )
    assert answer.status_code == 403 and not Subscription.objects.exists()


def test_the_rounds_page_says_how_many_will_be_told_and_what_failed(
    tonight, resolves, django_user_model
):
    night, people, drawn = tonight
    admin = member_of(night.season.club, django_user_model, "boss", "admin")
    client = Client()
    client.force_login(admin)
    for p in people[:3]:
        post(
            client,
            f"/nights/{night.pk}/push/",
            {
                "action": "on",
                "player": p.pk,
                "subscription": phone_of(),
            },
        )
    post(
        client,
        f"/nights/{night.pk}/push/",
        {  # a second phone of one of them
            "action": "on",
            "player": people[0].pk,
            "subscription": phone_of(),
        },
    )
    sub = Subscription.objects.filter(player=people[1]).first()
    Notice.objects.create(
        event="round.drawn:1",
        kind="drawn",
        subscription=sub,
        player=people[1],
        season=night.season,
        night=night,
        title="t",
        body="b",
        url="/",
        status="failed",
    )
    page = client.get(f"/nights/{night.pk}/rounds/").content.decode()
    assert "3 players of the night are told on their phones" in page
    assert "1 message tonight could not be delivered" in page
    client.cookies["django_language"] = "ja"
    page = client.get(f"/nights/{night.pk}/rounds/").content.decode()
    assert "3 人" in page and "1 件" in page


def test_a_stranger_cannot_make_one_player_followed_by_a_crowd_of_addresses(tonight, resolves):
    """Anyone may follow a public season's player; past ``PUBLIC_PHONES`` browsers by that
    right alone a new one is refused in words (the workers would post each event to every
    address), while the player's own phone, through the table's link, still turns it on."""
    from reach.subscriptions import PUBLIC_PHONES

    night, people, drawn = tonight
    Season.objects.filter(pk=night.season_id).update(public=True)
    match = Match.objects.filter(table__round=drawn).order_by("table__name").first()
    me = match.seated_players()[0]
    stranger = Client()
    url = f"/players/{me.pk}/push/"
    for i in range(PUBLIC_PHONES):
        answer = post(
            stranger,
            url,
            {
                "action": "on",
                "player": me.pk,
                "subscription": phone_of(f"https://push.example.net/s/{i}"),
            },
        )
        assert answer.status_code == 200, answer.content
    one_more = post(
        stranger,
        url,
        {"action": "on", "player": me.pk, "subscription": phone_of("https://push.example.net/s/x")},
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert one_more.status_code == 400 and Subscription.objects.count() == PUBLIC_PHONES
    said = one_more.json()["error"]
    assert me.display_name in said and "ログイン" in said and "卓のリンク" in said
    again = post(  # one already following may still change its kinds
        stranger,
        url,
        {
            "action": "on",
            "player": me.pk,
            "subscription": phone_of("https://push.example.net/s/0"),
            "kinds": ["drawn"],
        },
    )
    assert again.status_code == 200
    own = post(
        holding_the_link(match),
        f"/nights/{night.pk}/push/",
        {
            "action": "on",
            "player": me.pk,
            "subscription": phone_of("https://push.example.net/mine"),
        },
    )
    assert own.status_code == 200 and Subscription.objects.count() == PUBLIC_PHONES + 1


def test_an_account_of_another_club_is_counted_among_the_public_phones(
    tonight, resolves, django_user_model
):
    """Anyone may open an account (sign-up is open), so an account with no role in the
    player's club follows by the public right and counts among ``PUBLIC_PHONES``: one
    stranger's account cannot make the workers post each event to a crowd of addresses.
    A member of the club is not counted, nor crowded out."""
    from reach.subscriptions import PUBLIC_PHONES

    night, people, drawn = tonight
    Season.objects.filter(pk=night.season_id).update(public=True)
    me = Match.objects.filter(table__round=drawn).first().seated_players()[0]
    rival = Club.objects.create(name="Rivals", slug="rivals")
    stranger = Client()
    stranger.force_login(member_of(rival, django_user_model, "boss", "admin"))
    url = f"/players/{me.pk}/push/"

    def turn_on(client: Client, address: str):
        phone = phone_of(f"https://push.example.net/s/{address}")
        return post(client, url, {"action": "on", "subscription": phone})

    for i in range(PUBLIC_PHONES):
        assert turn_on(stranger, str(i)).status_code == 200
    refused = turn_on(stranger, "x")
    assert refused.status_code == 400, refused.content
    assert Subscription.objects.count() == PUBLIC_PHONES
    member = Client()
    member.force_login(member_of(night.season.club, django_user_model, "mika", "member"))
    assert turn_on(member, "mine").status_code == 200
    assert Subscription.objects.count() == PUBLIC_PHONES + 1
