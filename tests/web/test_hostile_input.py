"""Hostile and broken input: always a 4xx with a clear message, never a 500, never a partial write."""

import json

import pytest

from tests.conftest import NAPOLEON_SEATS, napoleon_deal
from tournaments.models import Deal, DealScore

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(make_match):
    return make_match("napoleon", NAPOLEON_SEATS)


def post(client, match, body):
    return client.post(f"/api/matches/{match.pk}/deals/", body, content_type="application/json")


@pytest.mark.parametrize(
    "body",
    [
        "[" * 100_000 + "]" * 100_000,  # deeper than the parser's recursion
        '{"record": {"a": ' + "[" * 40 + "1" + "]" * 40 + "}}",  # deep but parseable
        "{not json",
        "",
        "null",
        "[]",
        '{"record": "napoleon"}',
        '{"record": {"game": "chess"}}',
        '{"record": {"declaration": 5}}',
        '{"record": {}, "number": -1}',
        '{"record": {}, "number": 1e309}',
        json.dumps({"record": {**napoleon_deal(), "adjutant_cards": ["♠Z"]}}),
        json.dumps({"record": {**napoleon_deal(), "point_cards": {"aki": "nine"}}}),
        json.dumps(
            {
                "record": {
                    **napoleon_deal(),
                    "declaration": {"player": ["aki"], "count": 15, "trump": "hearts"},
                }
            }
        ),
    ],
)
def test_broken_bodies_get_a_4xx_with_the_error_shape_and_store_nothing(scorer_api, match, body):
    response = post(scorer_api, match, body)
    assert 400 <= response.status_code < 500, (response.status_code, response.content[:300])
    errors = response.json()["errors"]
    assert errors and all(e["message"] for e in errors)
    assert not Deal.objects.exists() and not DealScore.objects.exists()


def test_a_body_over_one_megabyte_is_refused(scorer_api, match):
    body = json.dumps({"record": napoleon_deal(), "pad": "x" * (1024 * 1024 + 10)})
    response = post(scorer_api, match, body)
    assert response.status_code in (400, 413)
    assert not Deal.objects.exists()


def test_unknown_matches_get_404(scorer_api):
    response = scorer_api.post(
        "/api/matches/999999/deals/", {"record": napoleon_deal()}, format="json"
    )
    assert response.status_code == 404 and response.json()["errors"][0]["code"] == "not_found"


@pytest.mark.parametrize(
    "how", [{"HTTP_COOKIE": "sessionid=ab\x00cd"}, {"QUERY_STRING": "club=1%00"}]
)
def test_nul_characters_in_cookies_or_query_get_400_not_a_database_error(client, how):
    response = client.get("/api/clubs/", **how)
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "nul_character"
