"""The site's own 403, 404 and 500 pages: the header, what happened in the reader's
language, why (for a 403) and a way back.  Django calls these handlers when DEBUG
is off (``config.urls``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _


def _page(
    request: HttpRequest, status: int, title: str, explanation: str, reason: str = ""
) -> HttpResponse:
    referer = request.headers.get("Referer", "")
    safe = url_has_allowed_host_and_scheme(referer, allowed_hosts={request.get_host()})
    back = referer if safe and referer != request.build_absolute_uri() else ""
    context = {
        "title": title,
        "explanation": explanation,
        "reason": reason,
        "back": back,
        "status": status,
    }
    return render(request, "error.html", context, status=status)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    reason = str(exception) if exception is not None and str(exception) else ""
    return _page(
        request,
        403,
        _("Not allowed"),
        _("You may not open this page with your role in this club."),
        reason or _("Ask a league administrator of the club if you need it."),
    )


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _page(
        request,
        404,
        _("Page not found"),
        _("There is no such page, or it belongs to a club whose pages you cannot see."),
    )


def busy(request: HttpRequest) -> HttpResponse:
    """503: the database could not be had in time (``config.middleware.DatabaseBusy``)."""
    return _page_or_plain(
        request,
        503,
        _("Busy"),
        _("The database is busy: nothing was stored. Try again in a moment."),
        "<h1>Busy</h1><p>Nothing was stored. Try again in a moment.</p>",
    )


def server_error(request: HttpRequest) -> HttpResponse:
    return _page_or_plain(
        request,
        500,
        _("Something went wrong"),
        _("The server failed to answer. Nothing was half-written; try again in a moment."),
        "<h1>Server error</h1><p><a href='/'>Clubscore</a></p>",
    )


def _page_or_plain(
    request: HttpRequest, status: int, title: str, explanation: str, plain: str
) -> HttpResponse:
    """The site's page; plain words when the page itself fails (it reads the reader's
    account, from a database that may be what failed): never a second error."""
    try:
        return _page(request, status, title, explanation)
    except Exception:
        return HttpResponse(plain, status=status)
