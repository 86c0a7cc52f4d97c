"""Project-level checks: migrations match the models, settings fail loudly."""

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.conftest import EMBEDDED, run_manage

pytestmark = pytest.mark.slow

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


def test_the_web_process_freezes_what_it_loaded_before_serving():
    """What gunicorn loads (``config.wsgi``) is out of the garbage collector's walks: the
    admin's deal list made a full collection of every object the project loaded, about
    100 ms, every few requests."""
    done = subprocess.run(
        [sys.executable, "-c", "import config.wsgi, gc; print(gc.get_freeze_count())"],
        cwd=ROOT,
        env={**os.environ, "SECRET_KEY": "k"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert int(done.stdout) > 50_000  # the project's modules, its URLconf and views


@EMBEDDED
def test_the_embedded_demo_loads_with_standings_and_ratings_that_a_rebuild_repeats(embedded_demo):
    """`make demo`'s database: SQLite, tasks run in the web process (no PostgreSQL, no COPY)."""
    env, _said = embedded_demo
    report = (
        "from scoring.models import Rating, SeasonStanding as S; "
        "print(S.objects.count(), sorted(Rating.objects.values_list('player__handle', 'game', 'mu', 'sigma')))"
    )
    loaded = run_manage(env, "shell", "-c", report)
    assert not loaded.startswith("0 ") and "('aki', 'comp13'" in loaded
    run_manage(env, "rebuild_standings")
    assert run_manage(env, "shell", "-c", report) == loaded


def production_env(**extra: str) -> dict[str, str]:
    """The README's production settings (behind the TLS proxy), on a throwaway database."""
    keep = {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}
    return {
        **keep,
        "DEBUG": "0",
        "SECRET_KEY": "x" * 30 + "production-like-" + "y" * 30,
        "ALLOWED_HOSTS": "scores.example.org",
        "DATABASE_URL": "sqlite:///:memory:",
        "TRUSTED_PROXIES": "1",
        **extra,
    }


def test_production_settings_pass_djangos_deployment_check():
    """Issue 24, 9: HSTS, the HTTPS redirect and secure-only cookies are on by default when
    DEBUG is off; `check --deploy` has nothing to say."""
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "no issues" in done.stdout
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            "import config.settings as s; print(s.SECURE_SSL_REDIRECT, "
            "s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS)",
        ],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
        check=True,
    )
    assert shown.stdout.split() == ["True", "True", "True", "31536000"]
    plain = subprocess.run(
        [sys.executable, "-c", "import config.settings as s; print(s.SECURE_SSL_REDIRECT)"],
        cwd=ROOT,
        env=production_env(HTTPS="0"),
        capture_output=True,
        text=True,
        check=True,
    )
    assert plain.stdout.split() == ["False"]


@pytest.mark.django_db
def test_behind_tls_plain_http_is_redirected_but_healthz_answers(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_HSTS_SECONDS = 31536000
    plain = client.get("/", HTTP_HOST="127.0.0.1")
    assert plain.status_code == 301 and plain["Location"].startswith("https://")
    assert client.get("/healthz").status_code == 200  # the load balancer's probe, over HTTP
    secure = client.get("/", HTTP_X_FORWARDED_PROTO="https")
    assert secure.status_code == 200 and "max-age=31536000" in secure["Strict-Transport-Security"]


@pytest.mark.django_db
def test_every_page_carries_a_content_security_policy_of_its_own_scripts_and_styles(client):
    policy = client.get("/")["Content-Security-Policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";") if d.strip())
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["default-src"] == "'self'" and directives["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy


@EMBEDDED
def test_make_demo_says_the_accounts_and_nothing_of_its_tasks(embedded_demo):
    """`make demo`'s environment (read from the Makefile): loading the demo prints the
    three accounts, not a line per background task."""
    _env, said = embedded_demo
    lines = said.strip().splitlines()
    assert any("admin" in line for line in lines) and len(lines) <= 6, lines[:10]
