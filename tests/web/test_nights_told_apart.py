"""Two nights of a season on one date are told apart (a newcomer's walk made an afternoon
and an evening at one hall, both unnamed: every list, title and calendar named them
alike).  A night every list would name as another is refused on its name, by the page
and the API alike, in the reader's language, and nothing is stored; a name, another
hall or another season tells them apart."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from actions import nights
from tests.conftest import client_of, member_of
from tests.markup import words
from tests.web.test_idempotency import at_once
from tournaments.errors import Rejection
from tournaments.models import ClubNight, Membership, Season

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 12, 5)


@pytest.fixture
def season(club):
    return Season.objects.create(club=club, name="Winter", games=["napoleon"])


@pytest.fixture
def secretary(club, django_user_model):
    return member_of(club, django_user_model, "lena", Membership.Role.ADMIN)


def test_the_page_asks_a_second_night_on_a_date_for_a_name(client, season, secretary):
    client.force_login(secretary)
    url = f"/seasons/{season.pk}/nights/new/"
    form = {"date": DAY.isoformat(), "venue": "中央公民館 2階", "deals_per_match": "4"}
    assert client.post(url, form).status_code == 302
    refused = client.post(url, form, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "このシーズンには「2026-12-05 中央公民館 2階」という例会がすでにあります" in refused
    assert re.search(r'class="field has-error"\s+id="field-name"', refused)  # at the name
    assert ClubNight.objects.count() == 1
    assert client.post(url, {**form, "name": "夜の部"}).status_code == 302
    labels = sorted(str(n) for n in ClubNight.objects.all())
    assert client.get(f"/seasons/{season.pk}/").status_code == 200
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "2026-12-05</span> 夜の部 · 中央公民館 2階" in page and len(labels) == 2


def test_the_api_refuses_it_on_the_name_and_stores_nothing(season, secretary):
    api = client_of(secretary)
    body = {"season": season.pk, "date": DAY.isoformat(), "venue": "Kanda hall"}
    assert api.post("/api/club-nights/", body, format="json").status_code == 201
    refused = api.post("/api/club-nights/", body, format="json", HTTP_ACCEPT_LANGUAGE="ja")
    assert refused.status_code == 400
    (error,) = refused.json()["errors"]
    assert (error["code"], error["path"]) == ("night_not_told_apart", "name")
    assert "「2026-12-05 Kanda hall」" in error["message"]
    assert ClubNight.objects.count() == 1
    made = api.post("/api/club-nights/", {**body, "name": "Evening"}, format="json")
    assert made.status_code == 201


def test_what_tells_two_nights_apart(season, club):
    first = nights.save_night(ClubNight(season=season, date=DAY, venue="Hall", name="Evening"))

    def refused(**fields) -> bool:
        try:
            with_ = {"season": season, "date": DAY, "venue": "Hall", **fields}
            nights.save_night(ClubNight(**with_)).delete()
        except Rejection as refusal:
            assert refusal.errors[0]["code"] == "night_not_told_apart"
            return True
        return False

    assert refused(name="evening ")  # as every list shows it, case and spaces aside
    assert not refused(name="Afternoon")
    assert not refused(name="Evening", venue="Other hall")
    assert not refused(name="Evening", date=DAY + dt.timedelta(days=1))
    other = Season.objects.create(club=club, name="Cup", games=["napoleon"])
    assert not refused(name="Evening", season=other)
    unnamed = nights.save_night(ClubNight(season=season, date=DAY, venue="Hall"))
    assert not refused(final=True)  # "Final" names it
    # A night changed into another's name is refused too; saved again unchanged, it is not.
    unnamed.name = "EVENING"
    with pytest.raises(Rejection):
        nights.save_night(unnamed)
    assert ClubNight.objects.get(pk=unnamed.pk).name == ""
    nights.save_night(first)


def form_key(page: str) -> str:
    found = re.search(r'name="key" value="([0-9a-f]{32})"', page)
    assert found, "the new-night form carries its one-time key"
    return found.group(1)


def test_the_same_new_night_form_sent_twice_adds_the_night_once(client, season, secretary):
    """A double tap on Save, or Back and Save again: the form's one-time key makes the
    second send answer as the first did (the night's draw), not as a second night asked
    for a name.  A new form for the same night is still asked."""
    client.force_login(secretary)
    url = f"/seasons/{season.pk}/nights/new/"
    key = form_key(client.get(url).content.decode())
    form = {"date": DAY.isoformat(), "venue": "Hall", "deals_per_match": "4", "key": key}
    first, again = client.post(url, form), client.post(url, form)
    night = ClubNight.objects.get(season=season)
    assert first.status_code == again.status_code == 302
    assert first.url == again.url == f"/nights/{night.pk}/draw/"
    another = form_key(client.get(url).content.decode())
    assert another != key
    refused = client.post(url, {**form, "key": another})
    assert refused.status_code == 200
    assert "This season already has a night called" in refused.content.decode()
    assert ClubNight.objects.filter(season=season).count() == 1


def test_a_night_form_key_belongs_to_its_season(client, club, season, secretary):
    client.force_login(secretary)
    spring = Season.objects.create(club=club, name="Spring", games=["napoleon"])
    key = form_key(client.get(f"/seasons/{season.pk}/nights/new/").content.decode())
    form = {"date": DAY.isoformat(), "venue": "Hall", "deals_per_match": "4", "key": key}
    for s in (season, spring):
        assert client.post(f"/seasons/{s.pk}/nights/new/", form).status_code == 302
    assert ClubNight.objects.filter(season__in=[season, spring]).count() == 2


@pytest.mark.parametrize("key", ["", "not-a-key", "f" * 200])
def test_a_made_up_night_form_key_is_no_key(client, season, secretary, key):
    client.force_login(secretary)
    url = f"/seasons/{season.pk}/nights/new/"
    form = {"date": DAY.isoformat(), "venue": "Hall", "deals_per_match": "4", "key": key}
    assert client.post(url, form).status_code == 302
    assert ClubNight.objects.get(season=season).form_key == ""
    assert client.post(url, form).status_code == 200  # asked for a name, as without a key
    assert ClubNight.objects.filter(season=season).count() == 1


@pytest.mark.django_db(transaction=True)
def test_one_night_form_sent_four_times_at_once_adds_one_night(season, secretary):
    url = f"/seasons/{season.pk}/nights/new/"
    key = form_key(signed_in(secretary).get(url).content.decode())
    form = {"date": DAY.isoformat(), "venue": "Hall", "deals_per_match": "4", "key": key}
    assert at_once(4, lambda: signed_in(secretary).post(url, form).status_code) == [302] * 4
    assert ClubNight.objects.filter(season=season).count() == 1


def signed_in(user) -> Client:
    browser = Client()
    browser.force_login(user)
    return browser


def test_the_secretarys_waiting_deals_name_their_nights(client, season, secretary, players):
    """Two nights on one date each with a 「卓 1」: the home page's list of deals waiting
    for confirmation names each deal's night, as the list of tonight's tables does."""
    import actions.deals
    import actions.matches
    from tests.conftest import NAPOLEON_SEATS, napoleon_deal
    from tournaments.models import Table

    Season.objects.filter(pk=season.pk).update(require_confirmation=True)
    for name in ("", "Evening"):
        night = ClubNight.objects.create(season=season, date=DAY, name=name, venue="Hall")
        table = Table.objects.create(club_night=night, name="Table 1")
        seated = [players[h] for h in NAPOLEON_SEATS]
        match = actions.matches.create_match(table, "napoleon", seated)
        actions.deals.enter_deal(match, napoleon_deal(), user=secretary).stored()
    client.force_login(secretary)
    client.cookies["django_language"] = "ja"
    home = words(client.get("/").content.decode())
    waiting = home[home.index("対応待ち") :]
    assert "2026-12-05 Hall · 卓 1 のディール 1 が確認待ちです" in waiting
    assert "2026-12-05 Evening · Hall · 卓 1 のディール 1 が確認待ちです" in waiting
