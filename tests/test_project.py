"""Project-level checks: migrations match the models, settings fail loudly."""

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.django_db
def test_the_migrations_match_the_models():
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)


def settings_with(**env):
    clean = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "DEBUG")}
    return subprocess.run(
        [
            sys.executable,
            "-c",
            "import config.settings as s; print(s.DEBUG, s.CELERY_TASK_ALWAYS_EAGER)",
        ],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_production_settings_refuse_to_start_without_a_secret_key():
    done = settings_with(DEBUG="0")
    assert done.returncode != 0 and "SECRET_KEY must be set" in done.stderr


def test_a_misspelt_boolean_is_an_error_not_a_guess():
    done = settings_with(DEBUG="maybe", SECRET_KEY="k")
    assert done.returncode != 0 and "DEBUG='maybe'" in done.stderr


def test_without_a_broker_tasks_run_eagerly_and_with_one_they_do_not():
    env = {"SECRET_KEY": "k", "CELERY_TASK_ALWAYS_EAGER": ""}
    assert settings_with(**env, CELERY_BROKER_URL="").stdout.split() == ["False", "True"]
    with_broker = settings_with(**env, CELERY_BROKER_URL="redis://127.0.0.1:1/0")
    assert with_broker.stdout.split() == ["False", "False"]


def test_the_embedded_demo_loads_with_standings_and_ratings_that_a_rebuild_repeats(tmp_path):
    """`make demo`'s database: SQLite, tasks run in the web process (no PostgreSQL, no COPY)."""
    env = {**os.environ, "DEBUG": "1", "DATABASE_URL": f"sqlite:///{tmp_path / 'demo.sqlite3'}",
           "CELERY_BROKER_URL": "", "CELERY_TASK_ALWAYS_EAGER": "1"}  # fmt: skip
    report = (
        "from scoring.models import Rating, SeasonStanding as S; "
        "print(S.objects.count(), sorted(Rating.objects.values_list('player__handle', 'game', 'mu', 'sigma')))"
    )

    def manage(*args):
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                              capture_output=True, text=True, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    manage("migrate", "-v0")
    manage("load_demo")
    loaded = manage("shell", "-c", report)
    assert not loaded.startswith("0 ") and "('aki', 'comp13'" in loaded
    manage("rebuild_standings")
    assert manage("shell", "-c", report) == loaded
