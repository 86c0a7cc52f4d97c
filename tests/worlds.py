"""Worlds built once per test session and copied back in for each test that needs one.

Loading the demo club enters every deal through the engine and the actions (a few
seconds); dozens of tests start from it.  The first test that asks for it loads it as
before; its rows are then kept in memory (PostgreSQL's ``COPY … TO STDOUT``) and every
later test gets the same rows copied back in (``COPY … FROM STDIN``, a few
milliseconds), as Tabbycat's tests load one prepared tournament.  Each process of a
parallel run (pytest-xdist) keeps its own copy for its own database.

Three demos differ by what the commit hooks did: committed as it was loaded (a test
outside a transaction: each deal's hooks ran after its commit), scored at the end (a test
that runs its hooks once, ``django_capture_on_commit_callbacks``), and the plain one with
the deals only, as a test inside one transaction sees it after ``load_demo``.

On SQLite (no ``COPY``) a world is simply built again each time.
"""

from __future__ import annotations

from collections.abc import Callable

from django.apps import apps
from django.core.management import call_command
from django.db import connection, transaction
from django.test import TestCase

from dbtools import backend

KEPT_BY_DJANGO = frozenset({"django_content_type", "auth_permission", "django_migrations"})
"""Tables that Django fills again after every flush: never part of a world."""

_kept: dict[str, list[tuple[str, list[str], bytes]]] = {}


def _tables() -> list[str]:
    names = {model._meta.db_table for model in apps.get_models(include_auto_created=True)}
    return sorted(names - KEPT_BY_DJANGO)


def _empty(tables: list[str]) -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute(
            " UNION ALL ".join(
                f"SELECT %s WHERE NOT EXISTS (SELECT 1 FROM {connection.ops.quote_name(t)})"
                for t in tables
            ),
            tables,
        )
        return {row[0] for row in cursor.fetchall()}


def _take(tables: list[str]) -> list[tuple[str, list[str], bytes]]:
    """Each named table's rows, as ``COPY`` writes them."""
    taken = []
    with connection.cursor() as cursor:
        for table in tables:
            columns = [
                c.name for c in connection.introspection.get_table_description(cursor, table)
            ]
            quoted = ", ".join(connection.ops.quote_name(c) for c in columns)
            data = bytearray()
            with cursor.cursor.copy(
                f"COPY {connection.ops.quote_name(table)} ({quoted}) TO STDOUT"
            ) as copy:
                for block in copy:
                    data += block
            taken.append((table, columns, bytes(data)))
    return taken


def _put(taken: list[tuple[str, list[str], bytes]]) -> None:
    """The rows back in (the tables are empty), and each table's id sequence past them."""
    with transaction.atomic(), connection.cursor() as cursor:
        for table, columns, data in taken:
            quoted = ", ".join(connection.ops.quote_name(c) for c in columns)
            with cursor.cursor.copy(
                f"COPY {connection.ops.quote_name(table)} ({quoted}) FROM STDIN"
            ) as copy:
                copy.write(data)
            if "id" in columns:
                cursor.execute(
                    "SELECT setval(pg_get_serial_sequence(%s, 'id'), GREATEST("
                    f"(SELECT MAX(id) FROM {connection.ops.quote_name(table)}),"
                    " (SELECT last_value FROM pg_sequences"
                    "   WHERE schemaname || '.' || sequencename"
                    "         = pg_get_serial_sequence(%s, 'id'))))",
                    [table, table],
                )


def built_once(name: str, build: Callable[[], object], *, analyze: bool = False) -> None:
    """The world ``name``: built by ``build`` the first time in this process, copied back
    in from then on.  Only into an empty database: a test that made rows of its own first
    builds its world as before.  ``analyze``: the copied tables are analyzed as the build
    analyzed them (a planner that takes a bulk-loaded table for empty picks slow plans)."""
    if backend.vendor_of(connection) != "postgresql":
        build()
        return
    tables = _tables()
    if _empty(tables) != set(tables):
        build()
    elif name in _kept:
        _put(_kept[name])
        if analyze:
            with connection.cursor() as cursor:
                for table, _columns, _data in _kept[name]:
                    cursor.execute(f"ANALYZE {connection.ops.quote_name(table)}")
    else:
        build()
        _kept[name] = _take(sorted(set(tables) - _empty(tables)))


def federation(clubs: int, players: int, deals: int, seed: int, **options: int) -> None:
    """A federation of ``ops.federation.generate`` (its clubs, players and played deals,
    without standings), generated once per process for each set of arguments."""
    from ops.federation import generate

    built_once(
        f"federation {clubs} {players} {deals} {seed} {options}",
        lambda: generate(clubs, players, deals, seed, **options),
        analyze=True,
    )


def rebuilt_federation(
    clubs: int, players: int, deals: int, seed: int, *, public: bool = False, **options: int
) -> None:
    """A :func:`federation` (its seasons made public with ``public``) with its standings and
    ratings rebuilt, built once per process: for tests that start from a ranked league
    rather than test the rebuild."""
    from scoring.rebuild import rebuild_all
    from tournaments.models import Season

    def build() -> None:
        federation(clubs, players, deals, seed, **options)
        if public:
            Season.objects.update(public=True)
        rebuild_all()

    built_once(
        f"federation {clubs} {players} {deals} {seed} {options}, public {public}, rebuilt",
        build,
        analyze=True,
    )


def demo(*, scored: bool = False) -> None:
    """The demo club, as ``manage.py load_demo`` makes it where the test stands: outside a
    transaction each commit runs its hooks as it goes; inside a test's transaction,
    ``scored`` runs them all once the demo is loaded, as ``django_capture_on_commit_callbacks``
    does, and otherwise none runs.  Each way is a world of its own: the standings a hook
    computes depend on when it runs."""
    if not connection.in_atomic_block:
        built_once("demo, committed", lambda: call_command("load_demo"))
    elif scored:
        built_once("demo, scored at the end", _scored_demo)
    else:
        built_once("demo", lambda: call_command("load_demo"))


def _scored_demo() -> None:
    with TestCase.captureOnCommitCallbacks(execute=True):
        call_command("load_demo")
