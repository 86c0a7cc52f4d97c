"""Middleware between the requests and the database.

- ``RejectNulCharacters``: PostgreSQL text cannot hold NUL; a cookie, a query parameter
  or a path with one would otherwise end in a database error (a 500) wherever it is
  first used, for example the session lookup.
- ``DatabaseBusy``: a database that cannot be had in time (SQLite's lock held by another
  writer past its busy timeout, PostgreSQL's lock or statement timeouts) answers 503
  with ``Retry-After``: the change was rolled back, so trying again is safe.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse

log = logging.getLogger(__name__)
RETRY_AFTER_SECONDS = 2


class RejectNulCharacters:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        parts = [request.path, *request.COOKIES.keys(), *request.COOKIES.values()]
        parts += [v for key, values in request.GET.lists() for v in (key, *values)]
        if any("\x00" in part for part in parts):
            return JsonResponse(
                {
                    "errors": [
                        {
                            "code": "nul_character",
                            "path": "",
                            "message": "the request contains a NUL character",
                        }
                    ]
                },
                status=400,
            )
        return self.get_response(request)


class DatabaseBusy:
    """An ``OperationalError`` (the database busy or out of reach) is a 503 with
    ``Retry-After``, in the API's error shape or as the site's own page; what the request
    wrote was rolled back with its transaction."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, OperationalError):
            return None
        log.warning("database busy: %s %s: %s", request.method, request.path, exception)
        from django.utils.translation import gettext as _

        from web.pages.errors import busy

        if request.path.startswith("/api/"):
            message = _("The database is busy: nothing was stored. Try again in a moment.")
            response: HttpResponse = JsonResponse(
                {"errors": [{"code": "busy", "path": "", "message": message}]}, status=503
            )
        else:
            response = busy(request)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
