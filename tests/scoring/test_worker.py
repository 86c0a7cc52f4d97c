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
