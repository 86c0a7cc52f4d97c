"""500 deals entered at once from several threads while a real worker keeps the standings:
the incremental standings end equal to a rebuild from the deal records alone."""

from __future__ import annotations

import random
import threading
import time

import pytest
from django.db import connection
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

import engine
from engine.games.simulate import random_full_deal
from scoring.models import MatchStanding, SeasonStanding
from scoring.rebuild import rebuild_all
from tests.conftest import NAPOLEON_SEATS, member_of
from tournaments.models import DealScore, Membership, Table

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

DEALS = 500
THREADS = 5


def napoleon_summaries(n: int, seed: int) -> list[dict]:
    """Legal summary records, each derived from a random deal the engine replayed."""
    rng = random.Random(seed)
    return [
        engine.summarize(random_full_deal(engine.GAMES["napoleon"], NAPOLEON_SEATS, rng))
        for _ in range(n)
    ]


def snapshot():
    season = sorted(
        SeasonStanding.objects.values_list(
            "game", "player_id", "total", "deals", "deals_won", "rank"
        )
    )
    match = sorted(
        MatchStanding.objects.values_list(
            "match_id", "player_id", "total", "deals", "deals_won", "rank"
        )
    )
    return season, match


def test_concurrent_entry_with_a_worker_ends_equal_to_a_rebuild(
    worker,
    make_match,
    table,
    django_user_model,
    monkeypatch,
    season,  # noqa: F811
):
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"deal_entry": "100000/min"})
    matches = [
        make_match(
            "napoleon",
            NAPOLEON_SEATS,
            at=Table.objects.create(club_night=table.club_night, name=f"T{i}"),
        )
        for i in range(10)
    ]
    records = napoleon_summaries(DEALS, seed=2026)
    users = [  # league administrators: each enters at every table
        member_of(season.club, django_user_model, f"load{i}", Membership.Role.ADMIN)
        for i in range(THREADS)
    ]
    failures: list[str] = []

    def scorer(index: int) -> None:
        client = APIClient()
        client.force_authenticate(users[index])
        try:
            for k in range(index, DEALS, THREADS):
                match = matches[k % len(matches)]
                response = client.post(
                    f"/api/matches/{match.pk}/deals/", {"record": records[k]}, format="json"
                )
                if response.status_code != 201:
                    failures.append(f"{response.status_code} {response.content[:200]!r}")
        finally:
            connection.close()

    threads = [threading.Thread(target=scorer, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not failures, failures[:3]
    assert DealScore.objects.count() == DEALS * 4

    deadline = time.monotonic() + 120
    while True:  # the worker catches up with the last commits
        done = sum(
            MatchStanding.objects.filter(player__handle="aki").values_list("deals", flat=True)
        )
        season_deals = SeasonStanding.objects.filter(player__handle="aki").values_list(
            "deals", flat=True
        )
        if done == DEALS and list(season_deals) == [DEALS]:
            break
        assert time.monotonic() < deadline, f"the worker has {done} of {DEALS} deals"
        time.sleep(0.5)
    time.sleep(1)  # let any task still running finish its last rewrite
    incremental = snapshot()
    rebuild_all()
    assert snapshot() == incremental
    assert sum(r[2] for r in incremental[0]) == 0  # Napoleon is zero-sum over the season
