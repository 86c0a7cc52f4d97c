"""Locks on a name rather than a row, for work that has no row of its own to lock yet
(a sign-up from one address, the closings of one club)."""

from __future__ import annotations

from django.db import connection

from dbtools import backend


def _advisory(name: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [name])


def _one_writer(name: str) -> None:
    """SQLite writes one transaction at a time anyway: nothing to take."""


until_commit = backend.twin(postgresql=_advisory, portable=_one_writer)
until_commit.__doc__ = """Wait for, then hold until the transaction ends, the lock on
``name``: two transactions that take it run one after the other.  PostgreSQL's advisory
lock on the name's hash; SQLite writes one transaction at a time anyway."""
