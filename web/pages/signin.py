"""Every password check is limited, by django-axes (settings: ``AXES_*``).

Axes hooks Django's ``authenticate`` itself (its backend comes first in
``AUTHENTICATION_BACKENDS``), so the limit holds wherever a password is checked: the
sign-in page, the Django admin's and the browsable API's. Failures are counted per user
name and client address in the database that every web process shares; after
``SIGN_IN_ATTEMPTS`` failures that name waits ``SIGN_IN_LOCKOUT_SECONDS`` from that
address (429), whatever the password. The API takes no password at all (tokens and
sessions only). Behind the TLS proxy the client's address is read from its
``X-Forwarded-For`` with ``TRUSTED_PROXIES`` (:func:`client_address`), so that one
person's wrong guesses lock out no one else.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def client_address(request: HttpRequest) -> str:
    """The client's address: ``REMOTE_ADDR``, or behind ``TRUSTED_PROXIES`` proxies the
    address the outermost trusted proxy saw (counted from the right of
    ``X-Forwarded-For``, as Django REST framework's ``NUM_PROXIES``, so that the sign-in
    limit and the API's rate limits see the same client). What a client writes into the
    header itself is left of what the proxies add, and is never taken."""
    remote = request.META.get("REMOTE_ADDR", "")
    proxies = settings.TRUSTED_PROXIES
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if not proxies or not forwarded:
        return remote
    addresses = [a.strip() for a in forwarded.split(",")]
    return addresses[-min(proxies, len(addresses))] or remote


def locked_out(request: HttpRequest, original: Any = None, credentials: Any = None) -> HttpResponse:
    """What a locked-out sign-in gets (429), in the reader's language: the sign-in form
    again with the reason, or the API's error shape."""
    minutes = max(1, settings.SIGN_IN_LOCKOUT_SECONDS // 60)
    message = ngettext(
        "Too many failed attempts: try again in %(n)s minute.",
        "Too many failed attempts: try again in %(n)s minutes.",
        minutes,
    ) % {"n": minutes}
    if request.path.startswith("/api/"):
        error = {"code": "too_many_attempts", "path": "", "message": message}
        return JsonResponse({"errors": [error]}, status=429)
    if request.path.endswith("/pin/"):  # a PIN at the table (actions.pins)
        context = {"title": _("Too many wrong PINs"), "explanation": message, "status": 429}
        return render(request, "error.html", context, status=429)
    # Unbound: a bound form would check the password again (and count another failure).
    form = AuthenticationForm(request, initial={"username": request.POST.get("username", "")})
    context = {"form": form, "next": request.POST.get("next", ""), "locked_out": message}
    return render(request, "registration/login.html", context, status=429)
