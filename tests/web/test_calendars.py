"""The calendar feeds (``web.ical``, ``web.pages.calendars``) as calendar apps read them:
parsed with ``icalendar``; a moved night keeps its UID with a higher SEQUENCE, a night
called off is CANCELLED, times are the club's time zone; a private season's nights
never in a public feed; a member's secret address checked at every fetch, and every
other string refused alike."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone
from icalendar import Calendar

import actions.deals
import actions.matches
from actions import nights
from actions.calendars import new_token
from tests.conftest import client_of, member_of, napoleon_deal
from tournaments.errors import Rejection
from tournaments.models import Club, ClubNight, Membership, Placement, Player, Season, Table
from web import ical

pytestmark = pytest.mark.django_db

SOON = timezone.localdate() + dt.timedelta(days=7)


@pytest.fixture
def kanda(db):
    return Club.objects.create(name="Kanda Card Club", slug="kanda", time_zone="Asia/Tokyo")


@pytest.fixture
def open_season(kanda):
    return Season.objects.create(club=kanda, name="Open League", games=["napoleon"], public=True)


@pytest.fixture
def secret_season(kanda):
    return Season.objects.create(club=kanda, name="Secret Winter", games=["napoleon"])


@pytest.fixture
def open_night(open_season):
    return ClubNight.objects.create(
        season=open_season,
        date=SOON,
        venue="Kanda Hall",
        starts_at=dt.time(18, 30),
        ends_at=dt.time(22, 0),
    )


@pytest.fixture
def secret_night(secret_season):
    return ClubNight.objects.create(season=secret_season, date=SOON, venue="Back Room")


def parsed(response) -> Calendar:
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(response.content)


def events(cal: Calendar) -> dict[str, object]:
    return {str(e["UID"]): e for e in cal.walk("VEVENT")}


def uid(night: ClubNight) -> str:
    return f"night-{night.pk}@127.0.0.1"


def test_the_club_feed_parses_with_its_time_zone_and_refresh(open_night):
    cal = parsed(Client().get("/clubs/kanda/calendar.ics"))
    event = events(cal)[uid(open_night)]
    assert event.start == dt.datetime(
        SOON.year, SOON.month, SOON.day, 18, 30, tzinfo=event.start.tzinfo
    )
    assert event["DTSTART"].params["TZID"] == "Asia/Tokyo"
    assert event["DTEND"].params["TZID"] == "Asia/Tokyo"
    assert event.start.utcoffset() == dt.timedelta(hours=9)
    assert [tz["TZID"] for tz in cal.walk("VTIMEZONE")] == ["Asia/Tokyo"]
    assert event["STATUS"] == "CONFIRMED" and event["SEQUENCE"] == 0
    assert event["LOCATION"] == "Kanda Hall"
    assert str(event["SUMMARY"]) == "Open League"
    assert str(event["URL"]) == f"http://testserver/nights/{open_night.pk}/"
    assert event["DTSTAMP"].dt == open_night.changed_at.replace(microsecond=0)
    assert event["LAST-MODIFIED"].dt == open_night.changed_at.replace(microsecond=0)
    assert cal["X-WR-CALNAME"] == "Kanda Card Club" and cal["NAME"] == "Kanda Card Club"
    raw = Client().get("/clubs/kanda/calendar.ics").content.decode()
    assert "REFRESH-INTERVAL;VALUE=DURATION:PT1H" in raw
    assert "X-PUBLISHED-TTL:PT1H" in raw


def test_the_same_feed_twice_is_the_same_bytes(open_night):
    """DTSTAMP is the night's last change, not the moment of the fetch: an app that
    compares sees nothing new."""
    assert Client().get("/clubs/kanda/calendar.ics").content == (
        Client().get("/clubs/kanda/calendar.ics").content
    )


def test_a_moved_night_keeps_its_uid_with_a_higher_sequence(open_night):
    before = events(parsed(Client().get("/clubs/kanda/calendar.ics")))[uid(open_night)]
    open_night.date = SOON + dt.timedelta(days=1)
    nights.save_night(open_night)
    after = events(parsed(Client().get("/clubs/kanda/calendar.ics")))[uid(open_night)]
    assert after["SEQUENCE"] == before["SEQUENCE"] + 1
    assert after.start.date() == SOON + dt.timedelta(days=1)
    assert after["LAST-MODIFIED"].dt > before["LAST-MODIFIED"].dt - dt.timedelta(seconds=1)


@pytest.mark.parametrize(
    "change",
    [
        {"starts_at": dt.time(19, 0)},
        {"ends_at": dt.time(23, 0)},
        {"venue": "Another Hall"},
        {"name": "Afternoon"},
    ],
)
def test_every_calendar_change_raises_the_sequence_once(open_night, change):
    for field, value in change.items():
        setattr(open_night, field, value)
    nights.save_night(open_night)
    nights.save_night(open_night)  # retried: the same values
    again = ClubNight.objects.get(pk=open_night.pk)
    nights.save_night(again)  # a form of the stored values
    assert ClubNight.objects.get(pk=open_night.pk).sequence == 1


def test_a_change_no_calendar_shows_raises_nothing(open_night):
    changed_at = open_night.changed_at
    open_night.table_size = 4
    open_night.deals_per_match = 6
    nights.save_night(open_night)
    stored = ClubNight.objects.get(pk=open_night.pk)
    assert (stored.sequence, stored.changed_at, stored.table_size) == (0, changed_at, 4)


def test_a_save_from_a_form_opened_before_the_night_was_called_off_keeps_it_off(open_night):
    stale = ClubNight.objects.get(pk=open_night.pk)
    assert nights.cancel_night(open_night)
    stale.venue = "Another Hall"
    nights.save_night(stale)
    stored = ClubNight.objects.get(pk=open_night.pk)
    assert stored.cancelled_at is not None and stored.sequence == 2


def test_a_called_off_night_is_cancelled_with_a_higher_sequence(open_night):
    assert nights.cancel_night(open_night)
    assert not nights.cancel_night(open_night)  # a retried tap changes nothing
    event = events(parsed(Client().get("/clubs/kanda/calendar.ics")))[uid(open_night)]
    assert event["STATUS"] == "CANCELLED" and event["SEQUENCE"] == 1
    assert str(event["SUMMARY"]) == "Called off: Open League"
    assert nights.restore_night(open_night)
    assert not nights.restore_night(open_night)
    event = events(parsed(Client().get("/clubs/kanda/calendar.ics")))[uid(open_night)]
    assert event["STATUS"] == "CONFIRMED" and event["SEQUENCE"] == 2


def test_the_feed_speaks_the_language_asked(open_night):
    nights.cancel_night(open_night)
    event = events(parsed(Client().get("/clubs/kanda/calendar.ics?lang=ja")))[uid(open_night)]
    assert str(event["SUMMARY"]).startswith("中止")


def test_a_night_that_has_deals_is_not_called_off(make_match, table):
    make_match("napoleon", ["aki", "ben", "chika", "dai"])
    actions.deals.enter_deal(table.matches.get(), napoleon_deal()).stored()
    night = table.club_night
    with pytest.raises(Rejection) as refused:
        nights.cancel_night(night)
    assert refused.value.errors[0]["code"] == "night_has_deals"
    assert "change its date" in refused.value.errors[0]["message"]
    night.refresh_from_db()
    assert night.cancelled_at is None and night.sequence == 0


def test_a_night_without_a_start_time_is_a_whole_day(open_season):
    night = ClubNight.objects.create(season=open_season, date=SOON)
    event = events(parsed(Client().get("/clubs/kanda/calendar.ics")))[uid(night)]
    assert event.start == SOON and not isinstance(event.start, dt.datetime)
    assert event.end == SOON + dt.timedelta(days=1)
    assert "LOCATION" not in event


def test_a_night_past_midnight_ends_the_next_day(open_season):
    night = ClubNight.objects.create(
        season=open_season, date=SOON, starts_at=dt.time(20, 0), ends_at=dt.time(1, 0)
    )
    event = events(parsed(Client().get("/clubs/kanda/calendar.ics")))[uid(night)]
    assert event.end - event.start == dt.timedelta(hours=5)


def test_the_club_time_zone_is_the_feeds(kanda, open_night):
    kanda.time_zone = "Europe/London"
    kanda.save()
    cal = parsed(Client().get("/clubs/kanda/calendar.ics"))
    event = events(cal)[uid(open_night)]
    assert event["DTSTART"].params["TZID"] == "Europe/London"
    assert [tz["TZID"] for tz in cal.walk("VTIMEZONE")] == ["Europe/London"]
    assert cal["X-WR-TIMEZONE"] == "Europe/London"


def test_two_nights_on_one_date_are_two_events(open_season, open_night):
    final = ClubNight.objects.create(season=open_season, date=SOON, final=True)
    found = events(parsed(Client().get("/clubs/kanda/calendar.ics")))
    assert {uid(open_night), uid(final)} <= set(found)
    assert str(found[uid(final)]["SUMMARY"]) == "Open League – Final"


def test_a_private_seasons_nights_are_never_in_the_public_feed(
    kanda, open_night, secret_night, django_user_model
):
    for client in (Client(), _signed_in(kanda, django_user_model)):
        body = client.get("/clubs/kanda/calendar.ics").content.decode()
        assert "Secret Winter" not in body and "Back Room" not in body
        assert uid(secret_night) not in body and uid(open_night) in body


def test_a_club_without_a_public_season_has_no_public_feed(kanda, secret_night):
    assert Client().get("/clubs/kanda/calendar.ics").status_code == 404
    assert Client().get("/clubs/nobody/calendar.ics").status_code == 404


def _signed_in(club, django_user_model, name="mika", role=Membership.Role.MEMBER) -> Client:
    client = Client()
    client.force_login(member_of(club, django_user_model, name, role))
    return client


# -- a member's private feed -----------------------------------------------------------


@pytest.fixture
def mika(kanda, django_user_model):
    user = member_of(kanda, django_user_model, "mika", Membership.Role.MEMBER)
    membership = Membership.objects.get(user=user)
    membership.calendar_token = new_token()
    membership.save()
    return membership


def test_a_members_feed_has_every_season_and_is_kept_by_no_cache(mika, open_night, secret_night):
    response = Client().get(f"/calendars/{mika.calendar_token}.ics")
    found = events(parsed(response))
    assert {uid(open_night), uid(secret_night)} <= set(found)
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    assert str(parsed(response)["X-WR-CALNAME"]) == "Kanda Card Club (members)"


def test_a_removed_members_address_answers_404(mika, secret_night):
    token = mika.calendar_token
    assert Client().get(f"/calendars/{token}.ics").status_code == 200
    mika.delete()
    assert Client().get(f"/calendars/{token}.ics").status_code == 404


def test_a_switched_off_accounts_address_answers_404(mika, secret_night):
    mika.user.is_active = False
    mika.user.save()
    assert Client().get(f"/calendars/{mika.calendar_token}.ics").status_code == 404


def test_a_new_address_ends_the_old_one_at_once(mika, secret_night):
    old = mika.calendar_token
    client = Client()
    client.force_login(mika.user)
    assert client.post("/clubs/kanda/calendar/", {"replacing": old}).status_code == 302
    new = Membership.objects.get(pk=mika.pk).calendar_token
    assert new != old and len(new) == 43
    assert Client().get(f"/calendars/{old}.ics").status_code == 404
    assert Client().get(f"/calendars/{new}.ics").status_code == 200
    # Sent again (a double tap, Back and send): the old one is replaced already.
    client.post("/clubs/kanda/calendar/", {"replacing": old})
    assert Membership.objects.get(pk=mika.pk).calendar_token == new
    page = client.get("/clubs/kanda/calendar/").content.decode()
    assert f"webcal://testserver/calendars/{new}.ics" in page


def test_the_first_address_is_made_once(kanda, django_user_model, secret_night):
    client = _signed_in(kanda, django_user_model, "nao")
    page = client.get("/clubs/kanda/calendar/").content.decode()
    assert "/calendars/" not in page and "make-calendar" in page
    client.post("/clubs/kanda/calendar/", {"replacing": ""})
    made = Membership.objects.get(user__username="nao").calendar_token
    client.post("/clubs/kanda/calendar/", {"replacing": ""})
    assert Membership.objects.get(user__username="nao").calendar_token == made


@pytest.mark.parametrize(
    "token",
    [
        "",  # a membership without an address has the empty token
        "x" * 43,  # guessed, of the right shape
        "x" * 42,
        "a/b",
        "%00" * 14,
        "x" * 10_000,  # huge
        "' OR '1'='1",
        "..%2F..%2Fetc%2Fpasswd",
    ],
)
def test_any_other_string_answers_404(mika, secret_night, token):
    response = Client().get(f"/calendars/{token}.ics")
    assert response.status_code == (400 if "%00" in token else 404)  # NUL: Django's 400
    assert b"Secret Winter" not in response.content


def test_another_clubs_address_opens_only_its_own_club(mika, secret_night, django_user_model):
    rival = Club.objects.create(name="Rival Club", slug="rival")
    Season.objects.create(club=rival, name="Rival Secret", games=["napoleon"])
    user = member_of(rival, django_user_model, "rika", Membership.Role.ADMIN)
    theirs = Membership.objects.get(user=user)
    theirs.calendar_token = new_token()
    theirs.save()
    body = Client().get(f"/calendars/{theirs.calendar_token}.ics").content.decode()
    assert "Secret Winter" not in body and "Back Room" not in body
    # A member of both clubs has an address per club.
    Membership.objects.create(club=rival, user=mika.user)
    mine = Client().get(f"/calendars/{mika.calendar_token}.ics").content.decode()
    assert "Rival Secret" not in mine


def test_a_member_of_another_club_has_no_calendar_page_here(kanda, django_user_model):
    rival = Club.objects.create(name="Rival Club", slug="rival")
    outsider = Client()
    outsider.force_login(member_of(rival, django_user_model, "rika", Membership.Role.ADMIN))
    assert outsider.get("/clubs/kanda/calendar/").status_code == 404
    assert outsider.post("/clubs/kanda/calendar/", {"replacing": ""}).status_code == 404
    assert not Membership.objects.exclude(calendar_token="").exists()


# -- a player's next nights ---------------------------------------------------------------


@pytest.fixture
def aki(kanda, open_season, secret_season):
    """A player seated at a public match of last week (anyone may read of them), and placed
    in a division of the secret season."""
    player = Player.objects.create(club=kanda, handle="aki", display_name="Aki")
    others = [Player.objects.create(club=kanda, handle=h, display_name=h) for h in "bcd"]
    last_week = ClubNight.objects.create(
        season=open_season, date=timezone.localdate() - dt.timedelta(days=7)
    )
    table = Table.objects.create(club_night=last_week, name="Table 1")
    actions.matches.create_match(table, "napoleon", [player, *others])
    division = secret_season.divisions.create(name="A", order=0)
    Placement.objects.create(season=secret_season, division=division, player=player)
    return player


def test_a_players_feed_to_a_stranger_has_only_public_seasons(
    aki, open_night, secret_night, django_user_model
):
    stranger = Client()
    stranger.force_login(django_user_model.objects.create_user("stranger", password="x-pass-12"))
    for client in (Client(), stranger):
        response = client.get(f"/players/{aki.pk}/calendar.ics")
        found = events(parsed(response))
        assert set(found) == {uid(open_night)}  # not the past night, not the secret one
        assert b"Secret Winter" not in response.content


def test_a_players_feed_to_a_member_has_their_private_seasons(
    kanda, aki, open_night, secret_night, django_user_model
):
    response = _signed_in(kanda, django_user_model).get(f"/players/{aki.pk}/calendar.ics")
    assert set(events(parsed(response))) == {uid(open_night), uid(secret_night)}
    assert "no-store" in response["Cache-Control"]


def test_a_players_feed_has_only_the_seasons_they_play_in(kanda, aki, open_night):
    other = Season.objects.create(club=kanda, name="Other Open", games=["napoleon"], public=True)
    ClubNight.objects.create(season=other, date=SOON)
    found = events(parsed(Client().get(f"/players/{aki.pk}/calendar.ics")))
    assert set(found) == {uid(open_night)}


def test_a_hidden_players_feed_answers_404_like_a_missing_one(kanda, secret_season):
    hidden = Player.objects.create(club=kanda, handle="hiro", display_name="Hidden Hiro")
    assert Client().get(f"/players/{hidden.pk}/calendar.ics").status_code == 404
    assert Client().get("/players/987654321/calendar.ics").status_code == 404


def test_the_uid_host_is_the_sites_not_the_requests(settings, open_night):
    settings.ALLOWED_HOSTS = ["clubs.example.org", "www.clubs.example.org"]
    response = Client(HTTP_HOST="www.clubs.example.org").get("/clubs/kanda/calendar.ics")
    assert f"night-{open_night.pk}@clubs.example.org" in events(parsed(response))


def test_the_feeds_hold_a_year_of_past_nights(open_season, open_night):
    old = ClubNight.objects.create(
        season=open_season, date=timezone.localdate() - dt.timedelta(days=ical.PAST_DAYS + 30)
    )
    found = events(parsed(Client().get("/clubs/kanda/calendar.ics")))
    assert uid(old) not in found and uid(open_night) in found


# -- the API ---------------------------------------------------------------------------


def test_the_api_moves_and_calls_off_a_night(kanda, open_night, django_user_model):
    api = client_of(member_of(kanda, django_user_model, "lena", Membership.Role.ADMIN))
    url = f"/api/club-nights/{open_night.pk}/"
    moved = api.patch(url, {"starts_at": "19:00", "ends_at": "22:30"}, format="json")
    assert moved.status_code == 200, moved.json()
    assert moved.json()["sequence"] == 1 and moved.json()["starts_at"] == "19:00:00"
    again = api.patch(url, {"starts_at": "19:00", "ends_at": "22:30"}, format="json")
    assert again.json()["sequence"] == 1
    refused = api.patch(url, {"starts_at": None, "ends_at": "22:30"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["path"] == "ends_at"
    off = api.post(f"{url}cancel/")
    assert off.status_code == 200 and off.json()["cancelled_at"] and off.json()["sequence"] == 2
    assert api.post(f"{url}cancel/").json()["sequence"] == 2
    back = api.post(f"{url}restore/")
    assert back.json()["cancelled_at"] is None and back.json()["sequence"] == 3
    ignored = api.patch(
        url, {"sequence": 99, "cancelled_at": "2026-01-01T00:00:00Z"}, format="json"
    )
    assert ignored.json()["sequence"] == 3 and ignored.json()["cancelled_at"] is None


def test_a_member_may_not_call_a_night_off_through_the_api(kanda, open_night, django_user_model):
    api = client_of(member_of(kanda, django_user_model, "mika", Membership.Role.MEMBER))
    assert api.post(f"/api/club-nights/{open_night.pk}/cancel/").status_code == 403
    assert ClubNight.objects.get(pk=open_night.pk).cancelled_at is None


def test_the_api_refuses_an_unknown_time_zone_in_words(kanda, django_user_model):
    api = client_of(member_of(kanda, django_user_model, "lena", Membership.Role.ADMIN))
    refused = api.patch(f"/api/clubs/{kanda.pk}/", {"time_zone": "Mars/Olympus"}, format="json")
    assert refused.status_code == 400
    assert "Asia/Tokyo" in refused.json()["errors"][0]["message"]
    assert (
        api.patch(f"/api/clubs/{kanda.pk}/", {"time_zone": "Europe/Paris"}, format="json").json()[
            "time_zone"
        ]
        == "Europe/Paris"
    )
