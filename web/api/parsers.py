"""A JSON parser that answers hostile bodies with 400, never 500: plain JSON alone (no
NaN, no number too large for a float, no key twice in an object, no lone surrogate)."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from django.conf import settings
from django.utils.translation import gettext, gettext_lazy
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 32
"""Deeper than any deal record (a full play record is 5 levels deep)."""


SURROGATE = re.compile("[\ud800-\udfff]")


class NotPlainJSON(ValueError):
    """JSON that Python reads but no other reader agrees on (RFC 8259 "interoperable"):
    ``str()`` says what and where, in the reader's language."""


def depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deeply ``value`` nests, counting no further than ``limit + 1``; a text holding
    a lone surrogate (``"\\ud800"``: no character, and no database stores it) is
    :class:`NotPlainJSON`."""
    stack = [(value, 1)]
    deepest = 0
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if deepest > limit:
            return deepest
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
            texts: Any = item
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
            texts = ()
        else:
            texts = (item,)
        for text in texts:
            if isinstance(text, str) and (found := SURROGATE.search(text)):
                raise NotPlainJSON(
                    gettext("not JSON: a text holds U+%(code)s, which is not a character")
                    % {"code": f"{ord(found.group()):04X}"}
                )
    return deepest


def _no_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys differ (a key given twice is refused, not the last one kept)."""
    kept = dict(pairs)
    if len(kept) < len(pairs):
        twice = next(k for i, (k, _v) in enumerate(pairs) if k in dict(pairs[:i]))
        raise NotPlainJSON(
            gettext("not JSON: the key %(key)s is given twice in one object") % {"key": twice}
        )
    return kept


def _finite(text: str) -> float:
    number = float(text)
    if math.isinf(number):
        raise NotPlainJSON(gettext("not JSON: %(value)s is too large a number") % {"value": text})
    return number


def _no_constant(text: str) -> float:
    raise NotPlainJSON(gettext("not JSON: %(value)s is not a number of JSON") % {"value": text})


def loads(text: str) -> Any:
    """``json.loads`` of plain JSON alone (:class:`NotPlainJSON` otherwise)."""
    return json.loads(
        text, object_pairs_hook=_no_twice, parse_float=_finite, parse_constant=_no_constant
    )


def not_json(exc: ValueError | RecursionError) -> str:
    """Why a text is not JSON, and where, in the reader's language."""
    if isinstance(exc, json.JSONDecodeError):
        return gettext("not JSON: line %(line)s, column %(column)s") % {
            "line": exc.lineno,
            "column": exc.colno,
        }
    if isinstance(exc, NotPlainJSON):
        return str(exc)
    if isinstance(exc, RecursionError):
        return gettext("JSON nested more than %(most)s levels deep") % {"most": MAX_DEPTH}
    return gettext("not JSON: the text is not UTF-8")


class PayloadTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = gettext_lazy("the request body is larger than 1 MB")
    default_code = "too_large"


class SafeJSONParser(JSONParser):
    """JSON bodies of at most DATA_UPLOAD_MAX_MEMORY_SIZE bytes and MAX_DEPTH levels.

    DRF reads the request stream itself, past Django's own body-size check, so the
    limit is applied here while reading.
    """

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise PayloadTooLarge()
        try:
            data = loads(raw.decode("utf-8"))
            if depth(data) > MAX_DEPTH:
                raise RecursionError
        except (ValueError, RecursionError) as exc:
            raise ParseError(not_json(exc)) from None
        return data
