"""Sign-in with a limit on failed attempts per user name and address (in the cache)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _


def _key(request: HttpRequest) -> str:
    name = (request.POST.get("username") or "").strip().lower()[:150]
    return f"signin-failures:{request.META.get('REMOTE_ADDR', '')}:{name}"


class LimitedLoginView(auth_views.LoginView):
    """After SIGN_IN_ATTEMPTS failures the same name from the same address waits (HTTP 429)."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if cache.get(_key(request), 0) >= settings.SIGN_IN_ATTEMPTS:
            form = self.get_form()
            minutes = max(1, settings.SIGN_IN_LOCKOUT_SECONDS // 60)
            form.add_error(
                None, _("Too many failed attempts: try again in %(n)s minutes.") % {"n": minutes}
            )
            response = self.render_to_response(self.get_context_data(form=form))
            response.status_code = 429
            return response
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: Any) -> HttpResponse:
        key = _key(self.request)
        cache.add(key, 0, settings.SIGN_IN_LOCKOUT_SECONDS)
        cache.incr(key)
        return super().form_invalid(form)

    def form_valid(self, form: Any) -> HttpResponse:
        cache.delete(_key(self.request))
        return super().form_valid(form)
