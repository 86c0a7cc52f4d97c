"""The cast and the set-up shared by the Django tests.

A small named cast, as in the house style: ``league_admin`` (staff), ``scorer``
(enters deals), and a club with ten players, a season counting every game, a
club night and a table.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest
from django.conf import settings as django_settings
from django.utils import translation
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

import actions.deals
import actions.matches
from dbtools import backend
from tournaments.games import league_game
from tournaments.games.base import demo_deals
from tournaments.models import Club, ClubNight, Match, Membership, Player, Round, Season, Table

T = TypeVar("T")

SEASON_LINE = (
    "game",
    "player__handle",
    "total",
    "deals",
    "deals_won",
    "matches",
    "matches_won",
    "rank",
    "score",
    "qualified",
    "nights",
)
"""The fields of a season standing that tests compare."""

HANDLES = ["aki", "ben", "chika", "dai", "emi", "fumi", "gen", "hana", "ito", "jun"]


ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "engine"

# `make test` (and so CI) tries the same examples on every run: a red run is reproducible and
# never the luck of the draw. `make fuzz` runs with fresh randomness (`--hypothesis-profile=fuzz`).
hypothesis_settings.register_profile("repeatable", derandomize=True)
hypothesis_settings.register_profile("fuzz", derandomize=False)
hypothesis_settings.load_profile("repeatable")


def stale_engine_extensions() -> list[str]:
    """Engine sources changed since the last ``make engine`` (which touches ``engine/.compiled``).

    Python imports ``engine/x.*.so`` in place of ``engine/x.py``: after an edit
    without a rebuild, the tests would check the old rules.  Without extensions
    nothing can be stale.
    """
    if not any(ENGINE.rglob("*.so")):
        return []
    stamp = ENGINE / ".compiled"
    built = stamp.stat().st_mtime if stamp.exists() else 0.0
    return sorted(
        str(source.relative_to(ENGINE.parent))
        for source in ENGINE.rglob("*.py")
        if source.stat().st_mtime > built
    )


BROWSER = Path(__file__).resolve().parent / "web" / "browser"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Marks that follow from what a test uses: ``browser`` for the browser tests, ``worker``
    (and one group of a parallel run, ``--dist loadgroup``) for every test that sends tasks
    to Redis, which all the processes share."""
    for item in items:
        if BROWSER in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)
        if {"worker", "not_eager"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.worker)
        if item.get_closest_marker("worker"):
            item.add_marker(pytest.mark.xdist_group("redis"))
    # The longest first, so that a parallel run does not end on one process still busy
    # with them while the others idle: the tests sharing Redis (one group, run by one
    # process), the browser tests, the slow ones, then the rest, each in its order.
    items.sort(key=_longest_first)


def _longest_first(item) -> int:
    for position, mark in enumerate(("worker", "browser", "slow")):
        if item.get_closest_marker(mark):
            return position
    return 3


def pytest_sessionstart(session):
    stale = stale_engine_extensions()
    if stale:
        pytest.exit(
            f"the compiled engine is older than {', '.join(stale)}: run `make engine` "
            "(or `make engine-clean` to test the pure-Python engine)",
            returncode=2,
        )


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the site's default language: a test that ran in Japanese leaves
    no trace in the next test its process runs (an error page rendered before the locale
    middleware runs speaks the language of the moment)."""
    translation.activate(django_settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Test users need no slow hash (the API fuzzing signs in on every request)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _plain_static_storage(settings):
    """Tests render admin pages without running collectstatic."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture
def league_admin(django_user_model):
    """The site operator (a superuser): every club, and the Django admin."""
    return django_user_model.objects.create_user(
        "admin", "admin@example.org", "admin-password-1", is_staff=True, is_superuser=True
    )


def member_of(club, django_user_model, username, role):
    user = django_user_model.objects.create_user(
        username, f"{username}@example.org", f"{username}-pass-1"
    )
    Membership.objects.create(user=user, club=club, role=role)
    return user


@pytest.fixture
def club_admin(club, django_user_model):
    """The club's league administrator (a membership, not a superuser)."""
    return member_of(club, django_user_model, "clubadmin", Membership.Role.ADMIN)


@pytest.fixture
def scorer(club, django_user_model):
    """A scorer of the club, and the scorer of the ``table`` fixture."""
    return member_of(club, django_user_model, "scorer", Membership.Role.SCORER)


@pytest.fixture
def member(club, django_user_model):
    return member_of(club, django_user_model, "member", Membership.Role.MEMBER)


@pytest.fixture
def club(db):
    return Club.objects.create(name="Test Club", slug="test")


@pytest.fixture
def players(club):
    return {h: Player.objects.create(club=club, handle=h, display_name=h.title()) for h in HANDLES}


@pytest.fixture
def season(club):
    return Season.objects.create(
        club=club, name="Spring", games=["napoleon", "rettler", "comp13", "packing"]
    )


@pytest.fixture
def table(season, scorer):
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 7), venue="Hall")
    return Table.objects.create(club_night=night, name="Table 1", scorer=scorer)


@pytest.fixture
def make_match(table, players):
    def make(game, handles, *, rules=None, target=None, at=None):
        return actions.matches.create_match(
            at or table, game, [players[h] for h in handles], rules=rules, target=target
        )

    return make


@pytest.fixture
def api():
    return APIClient()


def client_of(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def scorer_api(scorer):
    return client_of(scorer)


@pytest.fixture
def member_api(member):
    return client_of(member)


def napoleon_deal(declarer="aki", adjutant="chika", count=15, points=None):
    """A valid 4-player Napoleon summary among aki, ben, chika, dai."""
    return {
        "declaration": {"player": declarer, "count": count, "trump": "hearts"},
        "adjutant_cards": ["SA"],
        "adjutants": [adjutant] if adjutant else [],
        "point_cards": points or {"aki": 9, "ben": 3, "chika": 7, "dai": 1},
    }


NAPOLEON_SEATS = ["aki", "ben", "chika", "dai"]

NAPOLEON_FORM = {
    "declarer": "aki",
    "trump": "hearts",
    "count": "15",
    "adjutant_cards": "SA",
    "adjutants": ["chika"],
    "pc_aki": "9",
    "pc_ben": "3",
    "pc_chika": "7",
    "pc_dai": "1",
}
"""The entry page's form filled in with :func:`napoleon_deal` (among NAPOLEON_SEATS)."""


@pytest.fixture
def room(db):
    """A night of fourteen players of a club, in a season of Napoleon, Rettler and Comp-13
    (the nights in rounds)."""
    club = Club.objects.create(name="Open", slug="open")
    season = Season.objects.create(club=club, name="Cup", games=["napoleon", "rettler", "comp13"])
    night = ClubNight.objects.create(season=season, date=dt.date(2026, 11, 28))
    players = [
        Player.objects.create(club=club, handle=f"p{i:02d}", display_name=f"Player {i:02d}")
        for i in range(1, 15)
    ]
    return night, players


def play(round_: Round, seed: int = 1) -> None:
    """Every match of the round played to its end by the engine's random legal play."""
    for i, match in enumerate(Match.objects.filter(table__round=round_).order_by("table__name")):
        handles = [p.handle for p in match.seated_players()]
        for record in demo_deals(
            league_game(match.game),
            seed + i,
            handles,
            match.rules,
            match.target,
            first_in_full=False,
        ):
            actions.deals.enter_deal(match, record).stored()
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED, match


def at_the_same_moment(*work: Callable[[], T]) -> list[T | BaseException]:
    """Run each of ``work`` in a thread of its own, all released at once (a race); each
    one's answer, or the exception it raised.  Each thread closes its own connection."""
    from django.db import connection

    start = threading.Barrier(len(work))
    answers: list[T | BaseException] = [RuntimeError("not run")] * len(work)

    def run(i: int) -> None:
        try:
            start.wait()
            answers[i] = work[i]()
        except BaseException as exc:  # noqa: BLE001 - the caller looks at it
            answers[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(work))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def run_manage(env: dict[str, str], *args: str) -> str:
    """``manage.py`` in a process of its own with ``env`` (another database, the embedded
    demo's settings); its standard output, or the test fails with its standard error."""
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


EMBEDDED = pytest.mark.xdist_group("embedded")
"""The tests of ``make demo``'s database: in one process of a parallel run, which loads it once."""


def demo_env(database: Path) -> dict[str, str]:
    """`make demo`'s environment (read from the Makefile) on the SQLite file ``database``."""
    makefile = (ROOT / "Makefile").read_text()
    line = re.search(r"^DEMO_ENV := (.*?[^\\])$", makefile, re.M | re.S).group(1)
    demo = dict(pair.split("=", 1) for pair in line.replace("\\\n", " ").split())
    return {**os.environ, **demo, "DATABASE_URL": f"sqlite:///{database}"}


@pytest.fixture(scope="session")
def _embedded_demo(tmp_path_factory) -> tuple[Path, str]:
    """`make demo`'s database as its commands leave it (migrated, then ``load_demo`` in its
    own process), loaded once; and what ``load_demo`` said."""
    database = tmp_path_factory.mktemp("embedded") / "demo.sqlite3"
    env = demo_env(database)
    run_manage(env, "migrate", "-v0")
    done = subprocess.run(
        [sys.executable, "manage.py", "load_demo"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return database, done.stdout + done.stderr


def copy_of_demo(loaded: Path, folder: Path) -> dict[str, str]:
    """`make demo`'s environment on a copy of the ``loaded`` database, in ``folder``."""
    database = folder / "demo.sqlite3"
    shutil.copyfile(loaded, database)
    return demo_env(database)


@pytest.fixture
def embedded_demo(_embedded_demo, tmp_path) -> tuple[dict[str, str], str]:
    """A copy of `make demo`'s loaded database for this test: `make demo`'s environment on
    it, and what loading it said."""
    loaded, said = _embedded_demo
    return copy_of_demo(loaded, tmp_path), said


@pytest.fixture(scope="session", autouse=True)
def _close_stray_connections(django_db_setup, django_db_blocker):
    """End sessions a worker or live-server thread left open, so the test database can be dropped."""
    yield
    from django.db import connection

    with django_db_blocker.unblock():
        if backend.vendor_of(connection) == "postgresql" and connection.settings_dict[
            "NAME"
        ].startswith("test_"):
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
