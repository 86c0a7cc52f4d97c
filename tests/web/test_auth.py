"""Tokens for programs, limits on sign-in attempts and on deal entry."""

import base64

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


PASSWORD_CHECKS = ["/accounts/login/", "/admin/login/", "/api-auth/login/"]
"""Every page that takes a password (issue 24, 2): the limit holds on each."""


@pytest.mark.parametrize("url", PASSWORD_CHECKS)
def test_every_password_check_locks_a_name_after_repeated_failures(client, scorer, settings, url):
    settings.AXES_FAILURE_LIMIT = 3
    codes = [
        client.post(url, {"username": "scorer", "password": f"wrong-{i}"}).status_code
        for i in range(7)
    ]
    assert codes[:2] == [200, 200] and set(codes[2:]) == {429}, codes
    locked = client.post(url, {"username": "scorer", "password": "scorer-pass-1"})
    assert locked.status_code == 429 and "Too many failed attempts" in locked.content.decode()
    assert "_auth_user_id" not in client.session  # the right password did not sign in
    other = client.post(url, {"username": "someone", "password": "x"})
    assert other.status_code == 200  # another name is not locked


def test_the_limit_is_one_for_all_pages(client, scorer, settings):
    """Failures on one page count on the others: one store, not one per page."""
    settings.AXES_FAILURE_LIMIT = 3
    for url in PASSWORD_CHECKS:
        client.post(url, {"username": "scorer", "password": "wrong"})
    assert (
        client.post(
            "/accounts/login/", {"username": "scorer", "password": "scorer-pass-1"}
        ).status_code
        == 429
    )


def test_the_lockout_speaks_japanese(client, scorer, settings):
    settings.AXES_FAILURE_LIMIT = 1
    client.cookies["django_language"] = "ja"
    client.post("/accounts/login/", {"username": "scorer", "password": "wrong"})
    locked = client.post("/accounts/login/", {"username": "scorer", "password": "scorer-pass-1"})
    assert locked.status_code == 429 and "ログインの失敗が多すぎます" in locked.content.decode()


def test_the_api_takes_no_password(api, scorer, make_match):
    """HTTP Basic is not accepted: seven wrong guesses and the right one all fail alike."""
    match = make_match("napoleon", NAPOLEON_SEATS)
    for password in [f"wrong-{i}" for i in range(7)] + ["scorer-pass-1"]:
        api.credentials(
            HTTP_AUTHORIZATION="Basic " + base64.b64encode(f"scorer:{password}".encode()).decode()
        )
        response = api.post(
            f"/api/matches/{match.pk}/deals/", {"record": napoleon_deal()}, format="json"
        )
        assert response.status_code in (401, 403), response.status_code
    assert not Deal.objects.exists()


def test_a_successful_sign_in_clears_the_count(client, scorer, settings):
    settings.AXES_FAILURE_LIMIT = 3
    client.post("/accounts/login/", {"username": "scorer", "password": "wrong"})
    client.post("/accounts/login/", {"username": "scorer", "password": "wrong"})
    response = client.post("/accounts/login/", {"username": "scorer", "password": "scorer-pass-1"})
    assert response.status_code == 302
    client.logout()
    client.post("/accounts/login/", {"username": "scorer", "password": "wrong"})
    client.post("/accounts/login/", {"username": "scorer", "password": "wrong"})
    again = client.post("/accounts/login/", {"username": "scorer", "password": "scorer-pass-1"})
    assert again.status_code == 302  # two failures since the success, not four


def test_behind_the_proxy_one_persons_guesses_lock_out_no_one_else(client, scorer, settings):
    """Every request comes from the proxy's address; the client's is in X-Forwarded-For."""
    settings.AXES_FAILURE_LIMIT = 3
    settings.TRUSTED_PROXIES = 1
    proxy = {"REMOTE_ADDR": "10.0.0.2"}
    guesser = {**proxy, "HTTP_X_FORWARDED_FOR": "203.0.113.66"}
    for i in range(5):
        client.post("/accounts/login/", {"username": "scorer", "password": f"w{i}"}, **guesser)
    assert (
        client.post(
            "/accounts/login/", {"username": "scorer", "password": "scorer-pass-1"}, **guesser
        ).status_code
        == 429
    )
    member = {**proxy, "HTTP_X_FORWARDED_FOR": "198.51.100.7"}
    assert (
        client.post(
            "/accounts/login/", {"username": "scorer", "password": "scorer-pass-1"}, **member
        ).status_code
        == 302
    )
    # A guesser writing the header itself: the proxy appends the real address, which counts.
    client.logout()
    spoofed = {**proxy, "HTTP_X_FORWARDED_FOR": "198.51.100.7, 203.0.113.66"}
    assert (
        client.post(
            "/accounts/login/", {"username": "scorer", "password": "scorer-pass-1"}, **spoofed
        ).status_code
        == 429
    )


def test_without_a_trusted_proxy_the_header_is_ignored(client, scorer, settings):
    settings.AXES_FAILURE_LIMIT = 3
    for i in range(3):
        client.post(
            "/accounts/login/",
            {"username": "scorer", "password": f"w{i}"},
            HTTP_X_FORWARDED_FOR=f"203.0.113.{i}",
        )
    assert (
        client.post(
            "/accounts/login/",
            {"username": "scorer", "password": "scorer-pass-1"},
            HTTP_X_FORWARDED_FOR="198.51.100.7",
        ).status_code
        == 429
    )


def test_deal_entry_is_rate_limited_per_user(scorer_api, make_match, monkeypatch):
    from rest_framework.throttling import ScopedRateThrottle

    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"deal_entry": "2/min"})
    match = make_match("napoleon", NAPOLEON_SEATS)
    codes = [
        scorer_api.post(
            f"/api/matches/{match.pk}/deals/",
            {"record": napoleon_deal(declarer=declarer)},
            format="json",
        ).status_code
        for declarer in ("aki", "ben", "chika")
    ]
    assert codes == [201, 201, 429]
    said = scorer_api.post(
        f"/api/matches/{match.pk}/deals/",
        {"record": napoleon_deal(declarer="dai")},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    (error,) = said.json()["errors"]
    assert error["code"] == "throttled" and "秒後にもう一度" in error["message"]
    assert "Expected" not in error["message"] and said["Retry-After"]
    assert (
        scorer_api.get(f"/api/matches/{match.pk}/deals/").status_code == 200
    )  # reads are not limited


def test_signing_out_tells_the_browser_to_drop_its_cache(client, scorer):
    client.force_login(scorer)
    response = client.post("/accounts/logout/")
    assert response.status_code == 302 and response["Clear-Site-Data"] == '"cache"'
    assert "_auth_user_id" not in client.session
