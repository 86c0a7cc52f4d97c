"""A JSON parser that answers hostile bodies with 400, never 500."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.utils.translation import gettext, gettext_lazy
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 32
"""Deeper than any deal record (a full play record is 5 levels deep)."""


def depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deeply ``value`` nests, counting no further than ``limit + 1``."""
    stack = [(value, 1)]
    deepest = 0
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if deepest > limit:
            return deepest
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
    return deepest


def not_json(exc: ValueError | RecursionError) -> str:
    """Why a text is not JSON, and where, in the reader's language."""
    if isinstance(exc, json.JSONDecodeError):
        return gettext("not JSON: line %(line)s, column %(column)s") % {
            "line": exc.lineno,
            "column": exc.colno,
        }
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
            data = json.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError) as exc:
            raise ParseError(not_json(exc)) from None
        if depth(data) > MAX_DEPTH:
            raise ParseError(not_json(RecursionError()))
        return data
