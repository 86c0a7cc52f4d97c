"""Reading a club's backup document (``ops.restore``), each value with its place in the
file: a refusal names the object and the field (``seasons[0].club_nights[2].date: not a
date``), never a traceback, and every object is checked as the pages check it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.exceptions import ValidationError
from django.db.models import Model
from django.utils.dateparse import parse_date, parse_datetime, parse_time


class ImportError_(ValueError):
    """The document cannot be restored: the message names the object and the field."""


M = TypeVar("M", bound=Model)


def checked(obj: M, where: str, exclude: list[str] | None = None) -> M:
    """``obj`` checked as the pages' forms check it; a refusal names the object and field."""
    try:
        obj.full_clean(exclude=exclude)
    except ValidationError as refused:
        problems = "; ".join(
            f"{field}: {' '.join(messages)}" for field, messages in refused.message_dict.items()
        )
        raise ImportError_(f"{where}: {problems}") from None
    return obj


def saved(obj: M, where: str) -> M:
    """``obj`` checked (:func:`_checked`) and saved."""
    checked(obj, where).save()
    return obj


def obj(parent: Any, key: str, where: str) -> dict[str, Any]:
    value = _field(parent, key, where)
    if not isinstance(value, dict):
        raise ImportError_(f"{_at(where, key)}: an object, not {type(value).__name__}")
    return value


def listed(parent: Any, key: str, where: str, default: Any = ...) -> list[Any]:
    value = _field(parent, key, where, default)
    if not isinstance(value, list):
        raise ImportError_(f"{_at(where, key)}: a list, not {type(value).__name__}")
    return value


def text(parent: Any, key: str, where: str, default: Any = ...) -> str:
    value = _field(parent, key, where, default)
    if not isinstance(value, str):
        raise ImportError_(f"{_at(where, key)}: a text, not {value!r:.40}")
    return value


def flag(parent: Any, key: str, where: str) -> bool:
    value = _field(parent, key, where, False)
    if not isinstance(value, bool):
        raise ImportError_(f"{_at(where, key)}: true or false, not {value!r:.40}")
    return value


def whole(parent: Any, key: str, where: str, default: Any = ...) -> Any:
    """A whole number at ``key`` (``default`` when it is missing, which may be ``None``)."""
    value = _field(parent, key, where, default)
    if value is None and default is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise ImportError_(f"{_at(where, key)}: a whole number, not {value!r:.40}")
    return value


def day(parent: Any, key: str, where: str, optional: bool = False) -> dt.date | None:
    return _parsed(parent, key, where, parse_date, "a date (YYYY-MM-DD)", optional)


def moment(parent: Any, key: str, where: str, optional: bool = False) -> Any:
    return _parsed(parent, key, where, parse_datetime, "a date and time", optional)


def clock(parent: Any, key: str, where: str, optional: bool = False) -> dt.time | None:
    """A time of day (``19:00``, ``19:00:00``) at ``key``."""
    return _parsed(parent, key, where, parse_time, "a time of day (HH:MM)", optional)


def _parsed(
    parent: Any, key: str, where: str, parse: Callable[[str], Any], what: str, optional: bool
) -> Any:
    """The value at ``key`` read by ``parse`` (Django's date or date-time reader)."""
    value = _field(parent, key, where, None if optional else ...)
    if value is None and optional:
        return None
    try:
        parsed = parse(value) if isinstance(value, str) else None
    except ValueError:  # well-formed, but no such day (2026-02-30)
        parsed = None
    if parsed is None:
        raise ImportError_(f"{_at(where, key)}: not {what}: {value!r:.40}")
    return parsed


def _field(parent: Any, key: str, where: str, default: Any = ...) -> Any:
    if not isinstance(parent, dict):
        raise ImportError_(f"{where or 'the file'}: an object, not {type(parent).__name__}")
    if key not in parent:
        if default is ...:
            raise ImportError_(f"{_at(where, key)}: missing")
        return default
    return parent[key]


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key
