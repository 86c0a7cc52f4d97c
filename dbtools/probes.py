"""Whether the database answers, for the site's readiness check (``/readyz``)."""

from __future__ import annotations

import logging

from django.db import DEFAULT_DB_ALIAS, Error, connections
from django.db.backends.base.base import BaseDatabaseWrapper

log = logging.getLogger(__name__)


def database_answers(alias: str = DEFAULT_DB_ALIAS) -> bool:
    """One ``SELECT 1`` on the process's connection.  A kept connection that the server
    has ended (a restart, an idle timeout) is closed and the question asked once more on
    a new one: the answer is about the database, not about a connection of the past."""
    connection = connections[alias]
    kept = connection.connection is not None
    return _select_one(connection) or (kept and _select_one(connection))


def _select_one(connection: BaseDatabaseWrapper) -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Error as error:
        log.warning("database %s does not answer: %s", connection.alias, error)
        connection.close()  # the next question opens a new connection
        return False
    return True
