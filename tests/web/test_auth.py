"""Tokens for programs, limits on sign-in attempts and on deal entry."""

import pytest
from django.core.cache import cache
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.conftest import NAPOLEON_SEATS, napoleon_deal
from tournaments.models import Deal

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache():
    cache.clear()
    yield
    cache.clear()


def test_a_scorers_device_enters_deals_with_a_token(make_match, scorer):
    match = make_match("napoleon", NAPOLEON_SEATS)
    token = Token.objects.create(user=scorer)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = client.post(
        f"/api/matches/{match.pk}/deals/", {"record": napoleon_deal()}, format="json"
    )
    assert response.status_code == 201 and Deal.objects.get().entered_by == scorer
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    refused = client.get("/api/clubs/")
    assert refused.status_code in (401, 403)
    assert refused.json()["errors"][0]["code"] == "authentication_failed"


def test_sign_in_locks_a_name_after_repeated_failures(client, scorer, settings):
    settings.SIGN_IN_ATTEMPTS = 3
    for _ in range(3):
        response = client.post("/accounts/login/", {"username": "scorer", "password": "wrong"})
        assert response.status_code == 200
    locked = client.post("/accounts/login/", {"username": "scorer", "password": "scorer-pass-1"})
    assert locked.status_code == 429 and "Too many failed attempts" in locked.content.decode()
    other = client.post("/accounts/login/", {"username": "someone", "password": "x"})
    assert other.status_code == 200  # another name is not locked


def test_a_successful_sign_in_clears_the_count(client, scorer, settings):
    settings.SIGN_IN_ATTEMPTS = 3
    client.post("/accounts/login/", {"username": "scorer", "password": "wrong"})
    response = client.post("/accounts/login/", {"username": "scorer", "password": "scorer-pass-1"})
    assert response.status_code == 302


def test_deal_entry_is_rate_limited_per_user(scorer_api, make_match, monkeypatch):
    from rest_framework.throttling import ScopedRateThrottle

    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"deal_entry": "2/min"})
    match = make_match("napoleon", NAPOLEON_SEATS)
    codes = [
        scorer_api.post(
            f"/api/matches/{match.pk}/deals/", {"record": napoleon_deal()}, format="json"
        ).status_code
        for _ in range(3)
    ]
    assert codes == [201, 201, 429]
    assert (
        scorer_api.get(f"/api/matches/{match.pk}/deals/").status_code == 200
    )  # reads are not limited
