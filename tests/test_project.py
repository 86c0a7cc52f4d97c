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
