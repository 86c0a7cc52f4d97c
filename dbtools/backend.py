"""The one place that asks which database this is.

Each hot path that PostgreSQL does its own way (one statement that stores a deal, the
standings' set-based statements, streamed reads, ``COPY``) has a portable twin that any
database runs (the embedded demo's SQLite).  :func:`twin` makes the pair one function
that runs the twin of the database in use; :func:`postgresql` answers for the rest.  A
test runs the portable twins on PostgreSQL by name with :func:`using`, not by patching
private functions.

The column types of the schema follow the connection's real database
(:func:`vendor_of`): a test may run the portable code, never another schema.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Literal, ParamSpec, TypeVar

from django.db import connection

Name = Literal["postgresql", "portable"]
P = ParamSpec("P")
R = TypeVar("R")

_chosen: ContextVar[Name | None] = ContextVar("dbtools_backend", default=None)


def vendor_of(db_connection: Any) -> str:
    """The database a connection talks to (``postgresql``, ``sqlite``): for the schema's
    column types, which never follow :func:`using`."""
    return str(db_connection.vendor)


def name() -> Name:
    """The twins in use: ``postgresql`` on PostgreSQL unless :func:`using` chose the
    portable ones, ``portable`` on any other database."""
    chosen = _chosen.get()
    if chosen is not None:
        return chosen
    return "postgresql" if vendor_of(connection) == "postgresql" else "portable"


def postgresql() -> bool:
    """Whether PostgreSQL's own ways are in use (:func:`name`)."""
    return name() == "postgresql"


@contextmanager
def using(chosen: Name) -> Iterator[None]:
    """Run the ``chosen`` twins within the block (on PostgreSQL, ``portable`` runs what the
    embedded demo runs); PostgreSQL's own ways need PostgreSQL."""
    if chosen == "postgresql" and vendor_of(connection) != "postgresql":
        raise RuntimeError("PostgreSQL's ways need PostgreSQL")
    token = _chosen.set(chosen)
    try:
        yield
    finally:
        _chosen.reset(token)


def twin(*, postgresql: Callable[P, R], portable: Callable[P, R]) -> Callable[P, R]:
    """One function of two twins with the same signature and the same result: each call
    runs the twin of :func:`name`."""

    def chosen(*args: P.args, **kwargs: P.kwargs) -> R:
        return (postgresql if name() == "postgresql" else portable)(*args, **kwargs)

    chosen.__doc__ = postgresql.__doc__
    chosen.__name__ = getattr(postgresql, "__name__", "twin")
    return chosen
