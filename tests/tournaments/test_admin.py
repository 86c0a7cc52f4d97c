"""The admin enters deals through the engine too, and lists what a league admin needs."""

import json

import pytest

from tests.conftest import NAPOLEON_SEATS, napoleon_deal
from tournaments.models import Deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, league_admin):
    client.force_login(league_admin)
    return client


def test_an_invalid_deal_entered_in_the_admin_shows_the_engines_errors(admin_client, make_match):
    match = make_match("napoleon", NAPOLEON_SEATS)
    record = {**napoleon_deal(), "adjutants": ["zed"]}
    response = admin_client.post(
        "/admin/tournaments/deal/add/", {"match": match.pk, "record": json.dumps(record)}
    )
    assert response.status_code == 200  # the form again, with errors
    assert "adjutants[0]: &#x27;zed&#x27; is not one of the players" in response.content.decode()
    assert not Deal.objects.exists()


def test_a_valid_deal_entered_in_the_admin_is_stored_with_scores(
    admin_client, make_match, league_admin
):
    match = make_match("napoleon", NAPOLEON_SEATS)
    response = admin_client.post(
        "/admin/tournaments/deal/add/", {"match": match.pk, "record": json.dumps(napoleon_deal())}
    )
    assert response.status_code == 302
    deal = Deal.objects.get()
    assert deal.number == 1 and deal.entered_by == league_admin
    assert deal.scores.count() == 4


@pytest.mark.parametrize(
    "url",
    [
        "/admin/tournaments/match/",
        "/admin/tournaments/match/?game__exact=napoleon",
        "/admin/tournaments/player/?q=aki",
        "/admin/tournaments/deal/",
        "/admin/tournaments/clubnight/",
        "/admin/tournaments/season/",
    ],
)
def test_admin_lists_load(admin_client, make_match, url):
    make_match("napoleon", NAPOLEON_SEATS)
    assert admin_client.get(url).status_code == 200


def test_the_match_page_shows_its_seats_and_deals(admin_client, make_match):
    from tournaments import actions

    match = make_match("napoleon", NAPOLEON_SEATS)
    actions.enter_deal(match, napoleon_deal())
    page = admin_client.get(f"/admin/tournaments/match/{match.pk}/change/").content.decode()
    assert "aki +40" in page and "Seats" in page
