"""The site's own error pages: the header, what happened in the reader's language, why
(for a 403) and a way back; for the API, its ``{"errors": [...]}`` shape.  Django calls
the handlers when DEBUG is off (``config.urls``); a failed CSRF check comes here
(``CSRF_FAILURE_VIEW``) and a 405 without a body is given one (``SiteErrorPages``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
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


def _api(request: HttpRequest, status: int, code: str, message: str) -> HttpResponse | None:
    """The API's error shape for a request to the API (``None`` for a page)."""
    if not request.path.startswith("/api/"):
        return None
    return JsonResponse({"errors": [{"code": code, "path": "", "message": message}]}, status=status)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent with a token that is not (or no longer) the page's: after a sign-in
    elsewhere, a page kept too long, or cookies off."""
    message = _("The form was sent with an expired or missing security token.")
    return _api(request, 403, "csrf_failed", message) or _page(
        request,
        403,
        _("The form has expired"),
        message,
        _(
            "Open the page again (your sign-in may have changed since it was opened) and send it once more; make sure the browser keeps cookies for this site."
        ),
    )


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """400: a request Django will not read (a form over 1 MB, a bad header)."""
    message = _("The request could not be read: it is too large or malformed.")
    return _api(request, 400, "bad_request", message) or _page_or_plain(
        request, 400, _("Not readable"), message, "<h1>Bad request</h1>"
    )


def method_not_allowed(request: HttpRequest) -> HttpResponse:
    """405: a page opened in a way it does not answer (a link to a button's address)."""
    message = _("This address takes a form's button, not a link.")
    return _api(request, 405, "method_not_allowed", message) or _page(
        request, 405, _("Not here"), message
    )


class SiteErrorPages:
    """Gives the bare 405 a view answers (``require_http_methods``) the site's page."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code == 405 and not response.content:
            page = method_not_allowed(request)
            if "Allow" in response:
                page["Allow"] = response["Allow"]
            return page
        return response


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
