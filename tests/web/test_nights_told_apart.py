"""Two nights of a season on one date are told apart (a newcomer's walk made an afternoon
and an evening at one hall, both unnamed: every list, title and calendar named them
alike).  A night every list would name as another is refused on its name, by the page
and the API alike, in the reader's language, and nothing is stored; a name, another
hall or another season tells them apart."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from actions import nights
from tests.conftest import client_of, member_of
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
