"""Refuse requests carrying NUL characters before they reach the database.

PostgreSQL text cannot hold NUL; a cookie, a query parameter or a path with one
would otherwise end in a database error (a 500) wherever it is first used, for
example the session lookup.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse


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
