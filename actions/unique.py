"""A unique value taken by another request at the same moment.

An action checks a row before it stores it (``full_clean``, a serializer's validators);
two requests sent together (a double tap, two administrators) may both pass that check,
and the database's unique constraint then refuses the second.  :func:`taken_meanwhile`
turns that refusal into the words the check gives when the requests come one after the
other, by field, instead of an error page."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import IntegrityError
from django.db.models import Model


@contextmanager
def taken_meanwhile(instance: Model) -> Iterator[None]:
    """Within the block ``instance`` is stored in its own transaction (which the refusal
    rolls back); a unique value stored meanwhile by another request is refused as
    Django's ``ValidationError`` (the model's constraints, checked again now that the
    other row is there); any other integrity error is raised as it was."""
    try:
        yield
    except IntegrityError:
        instance.validate_constraints()
        raise
