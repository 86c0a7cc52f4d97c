"""A real Celery worker on Redis and PostgreSQL keeps the standings current."""

from __future__ import annotations

import time

import pytest

import engine
from config.celery import app as celery_app
from tests.conftest import NAPOLEON_SEATS, napoleon_deal

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def wait_for(fetch, predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    value = fetch()
    while not predicate(value):
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting; last value: {value!r}")
        time.sleep(0.1)
        value = fetch()
    return value


def test_a_worker_computes_the_standings_of_deals_entered_through_the_api(
    worker, scorer_api, make_match, season
):
    assert celery_app.conf.task_always_eager is False
    match = make_match("napoleon", NAPOLEON_SEATS)
    records = [napoleon_deal(declarer=d, adjutant="chika") for d in ("aki", "aki", "ben")]
    for record in records:  # the second is the first again, said to be (confirm_same)
        response = scorer_api.post(
            f"/api/matches/{match.pk}/deals/",
            {"record": record, "confirm_same": True},
            format="json",
        )
        assert response.status_code == 201, response.json()
    expected = {
        p: sum(
            engine.check({"game": "napoleon", "players": NAPOLEON_SEATS, **r}).scores[p]
            for r in records
        )
        for p in NAPOLEON_SEATS
    }

    def standings():
        return scorer_api.get(f"/api/standings/?match={match.pk}").json()["results"]

    rows = wait_for(standings, lambda rows: rows and rows[0]["deals"] == 3)
    totals = {r["handle"]: r["total"] for r in rows}
    assert totals == expected
    season_rows = wait_for(
        lambda: scorer_api.get(f"/api/standings/?season={season.pk}").json()["results"],
        lambda rows: rows and rows[0]["deals"] == 3,
    )
    assert {r["handle"]: r["total"] for r in season_rows} == totals


def test_an_entry_sends_one_message_and_the_worker_sends_its_refresh_and_announcement_on(
    worker, scorer_api, make_match, season
):
    """The request hands its refresh and its announcement to the broker as one message
    (``actions.after.hand_on``): the worker queues each, and the standings follow.
    A refused entry sends nothing."""
    from celery.signals import before_task_publish

    sent: list[str] = []

    def heard(sender=None, **_kwargs):
        sent.append(sender)

    before_task_publish.connect(heard)
    try:
        match = make_match("napoleon", NAPOLEON_SEATS)
        refused = scorer_api.post(
            f"/api/matches/{match.pk}/deals/", {"record": {"game": "napoleon"}}, format="json"
        )
        assert refused.status_code == 400
        assert sent == []
        record = napoleon_deal()
        response = scorer_api.post(
            f"/api/matches/{match.pk}/deals/", {"record": record}, format="json"
        )
        assert response.status_code == 201, response.json()
        assert sent == ["actions.after.hand_on"]
    finally:
        before_task_publish.disconnect(heard)
    rows = wait_for(
        lambda: scorer_api.get(f"/api/standings/?match={match.pk}").json()["results"],
        lambda rows: rows and rows[0]["deals"] == 1,
    )
    scores = engine.check({"game": "napoleon", "players": NAPOLEON_SEATS, **record}).scores
    assert {r["handle"]: r["total"] for r in rows} == scores
