"""Confirmation at the table: in a season that asks for it, a deal counts once a second
person has confirmed it, and the confirmer is never the one who entered it."""

import pytest
from rest_framework.test import APIClient

from scoring.models import MatchStanding, SeasonStanding
from tests.conftest import NAPOLEON_SEATS, napoleon_deal

pytestmark = pytest.mark.django_db


@pytest.fixture
def confirming_season(season):
    season.require_confirmation = True
    season.save()
    return season


def client_for(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_pending_deal_is_out_of_the_standings_until_someone_else_confirms_it(
    confirming_season, make_match, scorer, league_admin, django_capture_on_commit_callbacks, client
):
    match = make_match("napoleon", NAPOLEON_SEATS)
    with django_capture_on_commit_callbacks(execute=True):
        deal = (
            client_for(scorer)
            .post(f"/api/matches/{match.pk}/deals/", {"record": napoleon_deal()}, format="json")
            .json()
        )
    assert deal["confirmed_at"] is None
    assert set(MatchStanding.objects.filter(match=match).values_list("total", flat=True)) == {0}
    assert not SeasonStanding.objects.filter(season=confirming_season, total__gt=0).exists()

    client.force_login(scorer)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "pending confirmation" in page and "Confirm</button>" not in page  # not for the enterer

    own = client_for(scorer).post(f"/api/deals/{deal['id']}/confirm/")
    assert own.status_code == 400 and own.json()["errors"][0]["code"] == "same_person"

    with django_capture_on_commit_callbacks(execute=True):
        confirmed = client_for(league_admin).post(f"/api/deals/{deal['id']}/confirm/")
    assert confirmed.status_code == 200 and confirmed.json()["confirmed_at"] is not None
    assert "confirmed_by" not in confirmed.json()  # no account names in deal answers
    totals = dict(MatchStanding.objects.filter(match=match).values_list("player__handle", "total"))
    assert totals == {"aki": 40, "ben": -30, "chika": 20, "dai": -30}
    assert SeasonStanding.objects.get(season=confirming_season, player__handle="aki").total == 40
    again = client_for(league_admin).post(f"/api/deals/{deal['id']}/confirm/")
    assert again.status_code == 409 and again.json()["errors"][0]["code"] == "already_confirmed"


def test_without_the_season_option_deals_count_at_once(
    season, make_match, scorer, django_capture_on_commit_callbacks
):
    match = make_match("napoleon", NAPOLEON_SEATS)
    with django_capture_on_commit_callbacks(execute=True):
        client_for(scorer).post(
            f"/api/matches/{match.pk}/deals/", {"record": napoleon_deal()}, format="json"
        )
    assert MatchStanding.objects.get(match=match, player__handle="aki").total == 40


def test_the_match_page_confirm_button_confirms(
    confirming_season, make_match, scorer, league_admin, client
):
    import actions.deals

    match = make_match("napoleon", NAPOLEON_SEATS)
    deal = actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
    client.force_login(league_admin)
    assert "Confirm</button>" in client.get(f"/matches/{match.pk}/").content.decode()
    response = client.post(f"/deals/{deal.pk}/confirm/")
    assert response.status_code == 302
    deal.refresh_from_db()
    assert deal.confirmed_by == league_admin


@pytest.mark.django_db(transaction=True)
def test_a_confirmation_and_a_correction_of_one_deal_at_once_never_deadlock(
    confirming_season, make_match, scorer, league_admin
):
    """Real transactions, each in a thread: the confirmation takes the match before the
    deal, as the correction does, so one waits for the other (PostgreSQL would name a
    deadlock otherwise); each finishes or is refused in words."""
    from django.db import connection

    import actions.deals
    from actions import corrections
    from tests.conftest import at_the_same_moment
    from tournaments.errors import Rejection

    def closing(work):
        def run():
            try:
                return work()
            finally:
                connection.close()

        return run

    for _ in range(3):
        match = make_match("napoleon", NAPOLEON_SEATS)
        deal = actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
        answers = at_the_same_moment(
            closing(lambda d=deal: actions.deals.confirm_deal(d, league_admin)),
            closing(
                lambda d=deal: corrections.correct_deal(d, napoleon_deal(count=16), scorer, "16")
            ),
        )
        wrong = [
            a for a in answers if isinstance(a, BaseException) and not isinstance(a, Rejection)
        ]
        assert wrong == [], answers
