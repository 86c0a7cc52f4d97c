"""Pages of the lists that grow with the federation: matches and players.

Counting a list costs as much as reading all of it, so these lists are not counted:
a page is read from where the last one ended (a cursor over an index, "keyset"
pagination), and costs the same at ten thousand deals as at a million.  Each answer
has ``next`` and ``previous`` links (``?cursor=…``) and ``results``; no ``count``.
The other lists, a club's or a season's, keep page numbers and their count.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

from django.core.exceptions import ValidationError
from django.db.models import Field, Model, QuerySet
from rest_framework.exceptions import NotFound
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request

BIGGEST = 2**63
"""Past PostgreSQL's ``bigint``: no row's key."""


class Cursor(CursorPagination):
    """50 rows a page; ``?page_size=`` up to 200.  A cursor is the client's to send back
    as it was given: one whose position is not a value of the ordering's column (edited,
    cut short) is refused as an invalid cursor (404, as DRF refuses one it cannot read),
    before any query."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200
    model: type[Model]

    def paginate_queryset(
        self, queryset: QuerySet[Any], request: Request, view: Any = None
    ) -> list[Any] | None:
        self.model = queryset.model
        return super().paginate_queryset(queryset, request, view)

    def decode_cursor(self, request: Request) -> Any:
        cursor = super().decode_cursor(request)
        if cursor is None or cursor.position is None:
            return cursor
        name = self.ordering[0].lstrip("-")
        meta = self.model._meta
        field = cast("Field[Any, Any]", meta.pk if name == "pk" else meta.get_field(name))
        try:
            value = field.to_python(cursor.position)
        except ValidationError:
            value = None
        if (
            value is None
            or (isinstance(value, int) and not -BIGGEST < value < BIGGEST)
            # A time within a day of the calendar's ends has no UTC to compare with.
            or (isinstance(value, dt.datetime) and not dt.MINYEAR < value.year < dt.MAXYEAR)
        ):
            raise NotFound(self.invalid_cursor_message)
        return cursor


class NewestFirst(Cursor):
    """Matches, the latest first (the index ``match_latest``)."""

    ordering = ("-created_at", "-pk")


class InOrderAdded(Cursor):
    """Players in the order they were added (the primary key)."""

    ordering = ("pk",)
