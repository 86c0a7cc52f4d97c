"""Fixtures of the scoring tests: a real Celery worker."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

from config.celery import app as celery_app

ROOT = Path(__file__).resolve().parents[2]


def start_worker(**env_extra: str) -> subprocess.Popen:
    """A worker process (in a session of its own, so that a test can kill it whole) using
    the test database; tasks are sent to it, not run eagerly."""
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        pytest.fail("the worker tests need PostgreSQL (run them with `make test`)")
    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        pytest.fail("the worker tests need CELERY_BROKER_URL=redis://… (run them with `make test`)")
    db = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_TASK_ALWAYS_EAGER": "0",
        **env_extra,
    }
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--loglevel=WARNING",
            "--concurrency=2",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def stop_worker(process: subprocess.Popen) -> None:
    process.terminate()
    try:
        output, _ = process.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        output, _ = process.communicate()
    if "Traceback" in output:
        print(output)


@pytest.fixture
def not_eager():
    """Tasks go to the broker (with the CELERY namespace the prefixed name is the one read)."""
    celery_app.control.purge()
    eager = celery_app.conf.CELERY_TASK_ALWAYS_EAGER
    celery_app.conf.CELERY_TASK_ALWAYS_EAGER = False
    yield
    celery_app.conf.CELERY_TASK_ALWAYS_EAGER = eager


@pytest.fixture
def worker(not_eager):
    """A worker process using the test database."""
    process = start_worker()
    try:
        yield process
    finally:
        stop_worker(process)
