"""What browsers and shared caches may keep of the site's answers, decided in one place.

- An answer that depended on who reads it is **private**: ``Cache-Control: private,
  no-store``, so that neither a proxy nor the browser keeps it (a shared phone's Back
  button, a club's or a hotel's proxy).  That is every answer to a signed-in reader (a
  session or an API token: a private season's pages and downloads, a member's and an
  administrator's pages, a club's backups), every answer to a phone whose session holds
  something of its own (a table's link, a reset link being used), and the answers of the
  views marked :func:`private` (an invitation's page, which its link alone opens).  An
  anonymous reader's answers (the public seasons' pages and downloads) keep the caching
  they had.
- **Signing out** (the site's, the Django admin's and the browsable API's sign-out alike:
  whatever calls ``django.contrib.auth.logout``) answers ``Clear-Site-Data: "cache"``:
  the browser drops what it kept of the site.  The pages' script deletes the pages the
  service worker kept for use offline (``static/clubscore/site.js``) and keeps the deals
  waiting to be sent.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.utils.cache import patch_cache_control
from django.utils.functional import SimpleLazyObject, empty

P = ParamSpec("P")
R = TypeVar("R", bound=HttpResponseBase)

SIGNED_OUT = "_clubscore_signed_out"
"""Set on a request by :func:`signed_out` (``web.apps`` connects it)."""


def keep_private(response: HttpResponseBase) -> HttpResponseBase:
    """Nothing keeps ``response``: neither a shared cache nor the browser."""
    patch_cache_control(response, private=True, no_store=True)
    return response


def private(view: Callable[P, R]) -> Callable[P, R]:
    """A view whose answer is private whoever reads it (a page opened by a secret link)."""

    @wraps(view)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> R:
        response = view(*args, **kwargs)
        keep_private(response)
        return response

    return wrapped


def signed_out(sender: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """``user_logged_out``'s receiver: the answer to this request clears the site's data."""
    if request is not None:
        setattr(request, SIGNED_OUT, True)


def reader_known(request: HttpRequest) -> bool:
    """Whether the answer may have depended on who reads it: a signed-in reader (by
    session or API token), or a session that holds anything (a table's link, a holder
    id, a reset link being used).  Neither the user nor the session is read here if the
    view did not read them (no query, and no ``Vary: Cookie`` added)."""
    user = getattr(request, "user", None)
    # Django's lazy user, not yet evaluated: the view never asked who reads.
    asked = not (isinstance(user, SimpleLazyObject) and vars(user)["_wrapped"] is empty)
    if user is not None and asked and user.is_authenticated:
        return True
    session = getattr(request, "session", None)
    return session is not None and session.accessed and bool(session.keys())


class PrivateAnswers:
    """Marks the private answers (``Cache-Control: private, no-store``) and clears the
    browser's copy of the site on sign-out; it sits before the sessions' middleware, so
    that it sees the session as the view left it and every answer, refusals included."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if getattr(request, SIGNED_OUT, False):
            response["Clear-Site-Data"] = '"cache"'
        if reader_known(request):
            keep_private(response)
        return response
