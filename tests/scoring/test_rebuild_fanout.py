"""A full rebuild fanned out over real Celery workers ends equal to a clean rebuild:
started twice at once, or with its worker killed in the middle."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest
from celery import group
from django.db import connection
from django.db.models import F

from scoring.models import MatchStanding
from scoring.rebuild import club_batches, rebuild_all
from scoring.tasks import rebuild_clubs_task, rebuild_everything
from tests import worlds
from tests.scoring.conftest import start_worker, stop_worker
from tests.scoring.derived import derived, forget
from tournaments.models import Club, Match

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def federation(not_eager):
    worlds.federation(4, 48, 2400, 11)
    rebuild_all()
    clean = derived()
    assert all(clean), "every kind of derived row is there"
    forget()
    return clean


def test_two_rebuilds_started_at_once_end_equal_to_a_clean_one(federation, worker):
    answers: list[tuple[int, int]] = []

    def rebuild():
        try:
            answers.append(rebuild_everything(timeout=120))
        finally:
            connection.close()

    threads = [threading.Thread(target=rebuild) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(answers) == 2
    # Between them every match was checked (the clubs may be shared by the two rebuilds:
    # each club's work is done by whichever rebuild's worker takes its lock first).
    assert sum(checked for _seasons, checked in answers) >= Match.objects.count()
    assert derived() == federation
    assert not Match.objects.exclude(checked_version=F("version")).exists()


def test_a_rebuild_whose_worker_is_killed_is_finished_by_another_worker(federation):
    """The worker dies in the middle (SIGKILL, the whole process group): the club it was
    rebuilding is rolled back, its task goes back to the queue (acknowledged only when
    done) and the next worker finishes it; the caller still gets every club's answer."""
    first = start_worker(CELERY_VISIBILITY_TIMEOUT="3")
    clubs = list(Club.objects.order_by("pk").values_list("pk", flat=True))
    job = group(rebuild_clubs_task.s(b, True) for b in club_batches(clubs)).apply_async()
    deadline = time.monotonic() + 60
    while not MatchStanding.objects.exists():  # a first part committed: it is working
        assert time.monotonic() < deadline, "the worker never started"
        time.sleep(0.02)
    assert not job.ready(), "the rebuild ended before the worker could be killed"
    os.killpg(first.pid, signal.SIGKILL)
    stop_worker(first)
    interrupted = derived()
    # Its tasks go back to the queue once unacknowledged for the visibility timeout; a
    # worker looks for such tasks when it starts (and then about every 100 s).
    time.sleep(4)
    second = start_worker(CELERY_VISIBILITY_TIMEOUT="3")
    try:
        done = job.get(timeout=120)
    finally:
        stop_worker(second)
    assert interrupted != federation
    assert sum(m for _s, m in done) >= Match.objects.count()
    assert derived() == federation
