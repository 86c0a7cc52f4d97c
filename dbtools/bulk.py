"""Writing and reading many rows at once: PostgreSQL's COPY, ``bulk_create`` on other
databases; rows in the driver's own types, or streamed; plan settings; ANALYZE.

The rebuilds and the federation generator write hundreds of thousands of rows;
building a model instance per row and an INSERT with that many parameters
costs more than the work itself.  ``insert_rows`` takes plain tuples;
``write_differences`` makes a set of stored rows equal to fresh tuples, writing only
the rows that differ.
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, cast

from django.db import connection, models, transaction
from django.db.models import Model, QuerySet

from dbtools import backend

DELETED_AT_ONCE = 5000
"""Ids per DELETE (a statement's parameters stay well under the databases' limits)."""

STREAMED = 100
"""Rows a stream (:func:`streamed_rows`) takes from the server at a time (libpq 17's
chunks; the driver's wheel brings its own)."""


def insert_rows(
    model: type[models.Model],
    fields: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    ids: bool = False,
) -> list[int]:
    """Insert ``rows`` (values in the order of ``fields``); with ``ids``, their new ids in order."""
    rows = list(rows)
    if not rows:
        return []
    return _insert(model, fields, rows, ids)


def _created(
    model: type[models.Model], fields: Sequence[str], rows: list[Sequence[Any]], ids: bool
) -> list[int]:
    """Any database: Django's ``bulk_create``."""
    names = [_field(model, f).attname for f in fields]  # match_id: foreign keys take ids
    made = model.objects.bulk_create(  # type: ignore[attr-defined]
        [model(**dict(zip(names, row, strict=True))) for row in rows], batch_size=2000
    )
    return [obj.pk for obj in made] if ids else []


def _copied(
    model: type[models.Model], fields: Sequence[str], rows: list[Sequence[Any]], ids: bool
) -> list[int]:
    """PostgreSQL: ``COPY``, the ids drawn from the table's sequence first."""
    meta = model._meta
    columns = [_field(model, f) for f in fields]
    as_json = [isinstance(c, models.JSONField) for c in columns]
    names = [c.column for c in columns]
    with connection.cursor() as cursor:
        new_ids: list[int] = []
        if ids:
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                [meta.db_table, meta.pk.column, len(rows)],
            )
            new_ids = [row[0] for row in cursor.fetchall()]
            names = [meta.pk.column, *names]
        statement = f'COPY "{meta.db_table}" ({", ".join(names)}) FROM STDIN'
        # psycopg's own cursor, failing with Django's errors (the tasks retry on those)
        with connection.wrap_database_errors, cursor.cursor.copy(statement) as copy:
            for i, row in enumerate(rows):
                values = [
                    json.dumps(v) if j and v is not None else v
                    for v, j in zip(row, as_json, strict=True)
                ]
                copy.write_row([new_ids[i], *values] if ids else values)
    return new_ids


_insert = backend.twin(postgresql=_copied, portable=_created)


def update_rows(
    model: type[models.Model], fields: Sequence[str], rows: Iterable[Sequence[Any]]
) -> int:
    """Set ``fields`` of the rows whose ids lead ``rows`` (``(id, *values)`` tuples);
    returns how many were given.  On PostgreSQL the values are copied into a temporary
    table and set by one ``UPDATE … FROM`` (set-based: the first rebuild after loading a
    million deals, which gives every deal its rated event, takes about 3 minutes on 2
    workers, where ``bulk_update``'s ``CASE WHEN`` over a thousand ids a statement took
    about 18: docs/benchmarks.md); elsewhere ``bulk_update``."""
    rows = list(rows)
    if rows:
        _update(model, fields, rows)
    return len(rows)


def _bulk_updated(
    model: type[models.Model], fields: Sequence[str], rows: list[Sequence[Any]]
) -> None:
    """Any database: Django's ``bulk_update``."""
    names = [_field(model, f).attname for f in fields]
    objects = [model(pk=row[0], **dict(zip(names, row[1:], strict=True))) for row in rows]
    model.objects.bulk_update(objects, names, batch_size=1000)  # type: ignore[attr-defined]


def _copied_update(
    model: type[models.Model], fields: Sequence[str], rows: list[Sequence[Any]]
) -> None:
    """PostgreSQL: the rows copied into a temporary table of the same column types, then
    one ``UPDATE … FROM`` it by id."""
    meta = model._meta
    columns = [_field(model, f) for f in fields]
    as_json = [isinstance(c, models.JSONField) for c in columns]
    names = [meta.pk.column, *(c.column for c in columns)]
    listed = ", ".join(f'"{n}"' for n in names)
    # The table lives in the block: an error rolls it back with the rest (dropping it
    # then would fail in the failed transaction and hide the error).
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f'CREATE TEMPORARY TABLE "_updated" ON COMMIT DROP AS'
            f' SELECT {listed} FROM "{meta.db_table}" WITH NO DATA'
        )
        copied = f'COPY "_updated" ({listed}) FROM STDIN'
        with connection.wrap_database_errors, cursor.cursor.copy(copied) as copy:
            for row in rows:
                copy.write_row(
                    [
                        row[0],
                        *(
                            json.dumps(v) if j and v is not None else v
                            for v, j in zip(row[1:], as_json, strict=True)
                        ),
                    ]
                )
        sets = ", ".join(f'"{c.column}" = u."{c.column}"' for c in columns)
        cursor.execute(
            f'UPDATE "{meta.db_table}" t SET {sets} FROM "_updated" u'
            f' WHERE t."{meta.pk.column}" = u."{meta.pk.column}"'
        )
        cursor.execute('DROP TABLE "_updated"')  # another call in the same transaction


_update = backend.twin(postgresql=_copied_update, portable=_bulk_updated)


def plain_plans() -> None:
    """For the rest of the open transaction (on PostgreSQL): no parallel workers and no JIT
    compilation for its queries.  The rebuilds are spread over Celery workers, one per
    core: the database's own parallel workers only add processes competing for the same
    cores.  And their statements are short: compiling one (the planner's estimate of the
    ratings' read is above ``jit_above_cost``) costs more than it saves.  The figures:
    docs/benchmarks.md, "Measurements behind the code"."""
    _plain_plans()


def _set_plain_plans() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL max_parallel_workers_per_gather = 0; SET LOCAL jit = off")


def _nothing() -> None:
    """Other databases plan alone: nothing to set."""


_plain_plans = backend.twin(postgresql=_set_plain_plans, portable=_nothing)


@contextmanager
def snapshot() -> Iterator[None]:
    """A transaction whose reads all see the database as one moment left it, whatever
    commits meanwhile: PostgreSQL's REPEATABLE READ (its default, READ COMMITTED, sees
    each statement's own moment), SQLite's transaction as it is (one writer at a time).
    Inside a transaction already open, that transaction (its level is set by its first
    statement)."""
    outer = connection.in_atomic_block
    with transaction.atomic():
        if not outer and backend.vendor_of(connection) == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def plain_rows(rows: QuerySet[Any]) -> list[tuple[Any, ...]]:
    """A ``values_list`` query's tuples as the driver makes them: on PostgreSQL psycopg's
    own, sent in binary (numbers, text and dates need none of Django's converters; a
    third cheaper than Django's rows, and binary numbers and dates are cheaper again to
    make on the server and to read: docs/benchmarks.md), elsewhere
    Django's (SQLite's dates need its converters).  The parameters are bound on the
    server there: at most 65,535 a statement (the callers filter on a few ids)."""
    return _plain_rows(rows)


def _binary_rows(rows: QuerySet[Any]) -> list[tuple[Any, ...]]:
    sql, params = rows.query.sql_with_params()
    with _driver_cursor() as cursor:
        cursor.execute(sql, params, binary=True)
        return cursor.fetchall()


def _django_rows(rows: QuerySet[Any]) -> list[tuple[Any, ...]]:
    return list(rows)


_plain_rows = backend.twin(postgresql=_binary_rows, portable=_django_rows)


@contextmanager
def _driver_cursor() -> Iterator[Any]:
    """psycopg's own cursor on Django's connection (so in the same transaction), binding
    on the server (Django's cursors bind on the client, which psycopg answers in text
    alone), failing with Django's errors (the tasks retry on those)."""
    import psycopg  # PostgreSQL's driver: only where it is the database

    connection.ensure_connection()
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        yield cursor


@contextmanager
def streamed_rows(sql: str, params: dict[str, Any]) -> Iterator[Iterator[tuple[Any, ...]]]:
    """A statement's rows as the server sends them, on the open transaction's connection
    (PostgreSQL, chunks of ``STREAMED`` rows): the server makes the next rows while the
    caller works on the first (a replay reading a few clubs' deals: the database's work
    and the replay's run side by side on two cores, not one after the other).

    Nothing else may use the connection until the stream ends: read to its end, it
    leaves the transaction as it was; left before (an error on the way), the statement is
    cancelled as the block is left, which fails the transaction (rolled back by the
    error), rather than leaving the connection held by a stream nobody reads."""
    with _driver_cursor() as cursor:
        stream = cursor.stream(sql, params, binary=True, size=STREAMED)
        rows = cast(Generator[tuple[Any, ...], None, None], stream)  # typed as an iterator
        try:
            yield rows
        finally:
            rows.close()


def write_differences(
    rows: QuerySet[Any], key: list[str], values: list[str], fresh: list[tuple[Any, ...]]
) -> None:
    """Make ``rows`` (their ``key`` columns, then their ``values``: numbers, text, dates)
    the ``fresh`` tuples (one per key), writing only what differs: rows not among them
    deleted, rows whose values differ replaced, rows missing inserted (with
    :func:`insert_rows`).  Derived rows made again from unchanged data write nothing.
    Values compare exactly (floats round-trip through PostgreSQL unchanged).

    The stored rows are read whole and compared as a set, so that the usual answer
    ("nothing differs", or "nothing stored yet") costs one read and a hash per row; the
    ids of stale rows are read only when there are some."""
    model = rows.model
    attnames = [_field(model, name).attname for name in key]  # player_id: foreign keys as ids
    stored = set(plain_rows(rows.order_by().values_list(*attnames, *values)))
    new = [row for row in fresh if row not in stored]
    if len(stored) > len(fresh) - len(new):  # some stored rows are not among the fresh
        wanted = set(fresh)
        width = len(key)
        stale_keys = {row[:width] for row in stored if row not in wanted}
        stale = [
            row[-1]
            for row in plain_rows(rows.order_by().values_list(*attnames, "pk"))
            if row[:width] in stale_keys
        ]
        for start in range(0, len(stale), DELETED_AT_ONCE):
            model.objects.filter(pk__in=stale[start : start + DELETED_AT_ONCE]).delete()
    insert_rows(model, [*key, *values], new)


def _field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    """A concrete field of ``model`` (a column), by name."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field), f"{model.__name__}.{name} is not a column"
    return field


def analyze(models_: list[type[Model]]) -> None:
    """Have PostgreSQL count the rows just written (as its manual says to after a bulk
    load): a planner that still believes the tables empty nests loops over them, and the
    first rebuild's statements take minutes instead of milliseconds."""
    _analyze(models_)


def _analyzed(models_: list[type[Model]]) -> None:
    with connection.cursor() as cursor:
        for model in models_:
            cursor.execute(f'ANALYZE "{model._meta.db_table}"')


def _not_analyzed(models_: list[type[Model]]) -> None:
    """Other databases: their planners need no counting."""


_analyze = backend.twin(postgresql=_analyzed, portable=_not_analyzed)
