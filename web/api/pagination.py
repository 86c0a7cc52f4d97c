"""Pages of the lists that grow with the federation: matches and players.

Counting a list costs as much as reading all of it, so these lists are not counted:
a page is read from where the last one ended (a cursor over an index, "keyset"
pagination), and costs the same at ten thousand deals as at a million.  Each answer
has ``next`` and ``previous`` links (``?cursor=…``) and ``results``; no ``count``.
The other lists, a club's or a season's, keep page numbers and their count.
"""

from __future__ import annotations

from rest_framework.pagination import CursorPagination


class Cursor(CursorPagination):
    """50 rows a page; ``?page_size=`` up to 200."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200


class NewestFirst(Cursor):
    """Matches, the latest first (the index ``match_latest``)."""

    ordering = ("-created_at", "-pk")


class InOrderAdded(Cursor):
    """Players in the order they were added (the primary key)."""

    ordering = ("pk",)
