"""The endpoint actions validate what they are given, whoever calls them (the page's form
checks first, but a refusal here stores nothing either)."""

from __future__ import annotations

import pytest

from actions import webhooks
from reach.models import Endpoint
from tournaments.errors import Rejection

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("url", "events", "code"),
    [
        ("http://127.0.0.1/hook", ["round.drawn"], "refused_address"),
        ("https://10.0.0.7/hook", ["round.drawn"], "refused_address"),
        ("https://example.org/hook", [], "invalid_choice"),
        ("https://example.org/hook", ["round.drawn", "everything"], "invalid_choice"),
    ],
)
def test_a_bad_endpoint_is_refused_and_nothing_stored(club, club_admin, url, events, code):
    with pytest.raises(Rejection) as refused:
        webhooks.add_endpoint(club, club_admin, url, "", events)
    assert refused.value.errors[0]["code"] == code
    assert not Endpoint.objects.exists()


def test_the_eleventh_endpoint_is_refused(club, club_admin, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = True  # no name lookups in this test
    for i in range(10):
        webhooks.add_endpoint(club, club_admin, f"https://127.0.0.{i + 1}/h", "", ["round.drawn"])
    with pytest.raises(Rejection) as refused:
        webhooks.add_endpoint(club, club_admin, "https://127.0.0.99/h", "", ["round.drawn"])
    assert refused.value.errors[0]["code"] == "too_many"
    assert Endpoint.objects.filter(club=club).count() == 10
