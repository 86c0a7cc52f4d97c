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


@pytest.fixture
def worker():
    """A worker process using the test database; tasks are sent to it, not run eagerly."""
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        pytest.fail("the worker tests need PostgreSQL (run them with `make test`)")
    if not settings.CELERY_BROKER_URL.startswith("redis://"):
        pytest.fail("the worker tests need CELERY_BROKER_URL=redis://… (run them with `make test`)")
    db = settings.DATABASES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_TASK_ALWAYS_EAGER": "0",
    }
    celery_app.control.purge()
    process = subprocess.Popen(
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
    )
    # With the CELERY namespace the prefixed name is the one Celery reads.
    eager = celery_app.conf.CELERY_TASK_ALWAYS_EAGER
    celery_app.conf.CELERY_TASK_ALWAYS_EAGER = False
    try:
        yield process
    finally:
        celery_app.conf.CELERY_TASK_ALWAYS_EAGER = eager
        process.terminate()
        try:
            output, _ = process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
        if "Traceback" in output:
            print(output)
