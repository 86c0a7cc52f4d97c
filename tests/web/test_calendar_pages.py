"""The pages of calendars (issue 58): a night's times on its form, calling it off from
its page, the club's time zone, the public club page with its feed, the player page's
feed link."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

import actions.deals
import actions.matches
from tests.conftest import napoleon_deal
from tournaments.models import ClubNight, Player, Season, Table

pytestmark = pytest.mark.django_db

SOON = timezone.localdate() + dt.timedelta(days=7)


@pytest.fixture
def night(season):
    return ClubNight.objects.create(season=season, date=SOON, venue="Hall")


def test_a_night_is_made_with_its_times(admin, season):
    answer = admin.post(
        f"/seasons/{season.pk}/nights/new/",
        {"date": SOON.isoformat(), "starts_at": "18:30", "ends_at": "22:00", "venue": "Hall"},
    )
    assert answer.status_code == 302
    made = ClubNight.objects.get(season=season)
    assert (made.starts_at, made.ends_at, made.sequence) == (dt.time(18, 30), dt.time(22), 0)


def test_the_night_form_moves_a_night_once_however_often_sent(admin, night):
    page = admin.get(f"/nights/{night.pk}/edit/").content.decode()
    assert 'type="time"' in page and 'name="starts_at"' in page
    form = {"date": SOON.isoformat(), "starts_at": "19:00", "venue": "Other Hall"}
    for _ in range(2):
        assert admin.post(f"/nights/{night.pk}/edit/", form).status_code == 302
    night.refresh_from_db()
    assert (night.starts_at, night.venue, night.sequence) == (dt.time(19), "Other Hall", 1)


@pytest.mark.parametrize(
    ("form", "words"),
    [
        ({"ends_at": "22:00"}, "終了時刻には開始時刻が必要です"),
        ({"starts_at": "19:00", "ends_at": "19:00"}, "終了時刻が開始時刻と同じです"),
        ({"starts_at": "25:61"}, "時刻"),
        ({"starts_at": "x" * 5000}, "時刻"),
    ],
)
def test_wrong_times_are_refused_in_words_and_nothing_is_stored(admin, night, form, words):
    admin.post("/i18n/setlang/", {"language": "ja"})
    answer = admin.post(f"/nights/{night.pk}/edit/", {"date": SOON.isoformat(), **form})
    assert answer.status_code == 200 and words in answer.content.decode()
    stored = ClubNight.objects.get(pk=night.pk)
    assert (stored.starts_at, stored.ends_at, stored.sequence) == (None, None, 0)


def test_the_night_page_calls_a_night_off_and_back(admin, night):
    page = admin.get(f"/nights/{night.pk}/").content.decode()
    assert f'action="/nights/{night.pk}/cancel/"' in page and "data-confirm" in page
    admin.post(f"/nights/{night.pk}/cancel/")
    admin.post(f"/nights/{night.pk}/cancel/")  # sent twice: one change
    night.refresh_from_db()
    assert night.cancelled_at is not None and night.sequence == 1
    page = admin.get(f"/nights/{night.pk}/").content.decode()
    assert 'id="called-off"' in page and f'action="/nights/{night.pk}/restore/"' in page
    home = admin.get("/").content.decode()
    assert "called-off-mark" in home
    admin.post(f"/nights/{night.pk}/restore/")
    night.refresh_from_db()
    assert night.cancelled_at is None and night.sequence == 2


def test_a_night_with_deals_is_not_called_off_and_says_what_to_do(admin, make_match, table):
    actions.deals.enter_deal(
        make_match("napoleon", ["aki", "ben", "chika", "dai"]), napoleon_deal()
    ).stored()
    night = table.club_night
    page = admin.get(f"/nights/{night.pk}/").content.decode()
    assert f"/nights/{night.pk}/cancel/" not in page  # no button for it
    answer = admin.post(f"/nights/{night.pk}/cancel/", follow=True)
    assert "change its date" in answer.content.decode()
    night.refresh_from_db()
    assert night.cancelled_at is None and night.sequence == 0


def test_a_member_neither_sees_nor_uses_the_call_off_button(club, member, night):
    client = Client()
    client.force_login(member)
    assert "/cancel/" not in client.get(f"/nights/{night.pk}/").content.decode()
    assert client.post(f"/nights/{night.pk}/cancel/").status_code == 403
    assert ClubNight.objects.get(pk=night.pk).cancelled_at is None


def test_the_club_time_zone_is_set_on_its_settings_page(admin, club):
    page = admin.get(f"/clubs/{club.slug}/settings/").content.decode()
    assert 'list="time-zones"' in page and '<option value="Europe/London">' in page
    assert (
        admin.post(f"/clubs/{club.slug}/settings/", {"time_zone": "Europe/London"}).status_code
        == 302
    )
    club.refresh_from_db()
    assert club.time_zone == "Europe/London"
    assert "Europe/London" in admin.get(f"/clubs/{club.slug}/setup/").content.decode()


@pytest.mark.parametrize("zone", ["Mars/Olympus", "", "x" * 5000, "../../etc/passwd", "UTC\x00"])
def test_a_wrong_time_zone_is_refused_in_words(admin, club, zone):
    answer = admin.post(f"/clubs/{club.slug}/settings/", {"time_zone": zone})
    assert answer.status_code == 200
    assert 'class="errorlist' in answer.content.decode()
    club.refresh_from_db()
    assert club.time_zone == "Asia/Tokyo"


def test_a_wrong_time_zone_is_refused_in_japanese(admin, club):
    admin.post("/i18n/setlang/", {"language": "ja"})
    answer = admin.post(f"/clubs/{club.slug}/settings/", {"time_zone": "Mars/Olympus"})
    assert "タイムゾーンではありません" in answer.content.decode()


# -- the club's page ---------------------------------------------------------------------


@pytest.fixture
def two_seasons(club):
    public = Season.objects.create(club=club, name="Open League", games=["napoleon"], public=True)
    secret = Season.objects.create(club=club, name="Secret Winter", games=["napoleon"])
    open_night = ClubNight.objects.create(season=public, date=SOON, starts_at=dt.time(19))
    ClubNight.objects.create(season=secret, date=SOON, venue="Back Room")
    return public, secret, open_night


def test_the_club_page_shows_an_outsider_only_public_things(club, two_seasons, django_user_model):
    stranger = Client()
    stranger.force_login(django_user_model.objects.create_user("stranger", password="x-pass-12"))
    for client in (Client(), stranger):
        page = client.get(f"/clubs/{club.slug}/").content.decode()
        assert "Open League" in page and "19:00" in page
        assert "Secret Winter" not in page and "Back Room" not in page
        assert (
            '<link rel="alternate" type="text/calendar" '
            f'href="http://testserver/clubs/{club.slug}/calendar.ics?lang=en"'
            in " ".join(page.split())
        )
        assert f"webcal://testserver/clubs/{club.slug}/calendar.ics" in page
        assert "/calendar/" not in page.replace("calendar.ics", "")  # no member's address


def test_the_club_page_shows_a_member_everything(club, member, two_seasons):
    client = Client()
    client.force_login(member)
    page = client.get(f"/clubs/{club.slug}/").content.decode()
    assert "Secret Winter" in page and "Back Room" in page
    assert f'href="/clubs/{club.slug}/calendar/"' in page


def test_a_club_with_nothing_public_is_unknown_to_outsiders(club, member):
    Season.objects.create(club=club, name="Secret Winter", games=["napoleon"])
    assert Client().get(f"/clubs/{club.slug}/").status_code == 404
    assert Client().get("/clubs/no-such-club/").status_code == 404
    client = Client()
    client.force_login(member)
    assert client.get(f"/clubs/{club.slug}/").status_code == 200


def test_the_club_page_marks_a_called_off_night(club, two_seasons):
    *_, open_night = two_seasons
    open_night.cancelled_at = timezone.now()
    open_night.save()
    page = Client().get(f"/clubs/{club.slug}/").content.decode()
    assert 'class="called-off"' in page and "Called off" in page


def test_the_home_and_season_pages_link_the_club_page(club, two_seasons):
    public, *_ = two_seasons
    assert f'href="/clubs/{club.slug}/"' in Client().get("/").content.decode()
    assert f'href="/clubs/{club.slug}/"' in Client().get(f"/seasons/{public.pk}/").content.decode()


def test_the_player_page_links_the_players_feed(club, two_seasons):
    public, *_ = two_seasons
    people = [Player.objects.create(club=club, handle=h, display_name=h) for h in "abcd"]
    table = Table.objects.create(club_night=public.club_nights.get(), name="Table 1")
    actions.matches.create_match(table, "napoleon", people)
    page = " ".join(Client().get(f"/players/{people[0].pk}/").content.decode().split())
    assert (
        '<link rel="alternate" type="text/calendar" '
        f'href="http://testserver/players/{people[0].pk}/calendar.ics?lang=en"' in page
    )


def test_a_private_seasons_player_is_offered_the_members_own_calendar_not_a_dead_feed(
    club, member, two_seasons, django_user_model
):
    """A calendar app asks for a feed without the reader's cookies: a player of private
    seasons alone has no feed anyone may read (404 to the app), so a member is offered
    their own secret address, which the app can read (an operator who is not a member:
    neither)."""
    _public, secret, _night = two_seasons
    people = [Player.objects.create(club=club, handle=h, display_name=h) for h in "abcd"]
    table = Table.objects.create(club_night=secret.club_nights.get(), name="Table 1")
    actions.matches.create_match(table, "napoleon", people)
    assert Client().get(f"/players/{people[0].pk}/calendar.ics").status_code == 404
    reader = Client()
    reader.force_login(member)
    page = reader.get(f"/players/{people[0].pk}/").content.decode()
    assert "calendar.ics" not in page and f'href="/clubs/{club.slug}/calendar/"' in page
    operator = Client()
    operator.force_login(django_user_model.objects.create_superuser("op", password="x-pass-12"))
    answer = operator.get(f"/players/{people[0].pk}/")
    assert answer.status_code == 200 and people[0].display_name in answer.content.decode()
    assert "calendar.ics" not in answer.content.decode()
    assert "/calendar/" not in answer.content.decode()


def test_the_seasons_latest_night_is_one_held_not_one_to_come_nor_one_called_off(
    club, club_admin, season, client
):
    """A season's page names its latest night: never a night still to come, nor one
    called off (both are still listed among all its nights, marked)."""
    import datetime as dt

    from django.utils import timezone as tz

    from tournaments.models import ClubNight

    today = tz.localdate()
    held = ClubNight.objects.create(season=season, date=today - dt.timedelta(days=7))
    ClubNight.objects.create(
        season=season, date=today - dt.timedelta(days=1), cancelled_at=tz.now(), sequence=1
    )
    ClubNight.objects.create(season=season, date=today + dt.timedelta(days=7))
    client.force_login(club_admin)
    page = client.get(f"/seasons/{season.pk}/").content.decode()
    latest = page.split("Latest club night")[1].split("</p>")[0]
    assert f"/nights/{held.pk}/" in latest
    assert "All 3 club nights" in page and "called off" in page


def test_the_time_zone_is_checked_by_the_action_too(club):
    """``actions.calendars.set_time_zone``, which the settings page calls: a name that is
    no time zone is refused, in the reader's language, and the stored one stays."""
    from django.utils import translation

    from actions import calendars
    from tournaments.errors import Rejection
    from tournaments.messages import localize

    with pytest.raises(Rejection) as refused:
        calendars.set_time_zone(club, "Mars/Olympus")
    (problem,) = refused.value.errors
    assert problem["path"] == "time_zone"
    with translation.override("ja"):
        assert "Mars/Olympus" in localize(problem) and not localize(problem).isascii()
    club.refresh_from_db()
    assert club.time_zone == "Asia/Tokyo"
    calendars.set_time_zone(club, "Europe/London")
    club.refresh_from_db()
    assert club.time_zone == "Europe/London"
