"""The browsable API under the site's Content-Security-Policy.

Django REST framework's HTML pages put a few ``style="…"`` attributes on their buttons;
for those pages alone the policy allows inline style *attributes* (``style-src-attr``),
never inline ``<style>`` elements nor any inline script.  JSON answers are unchanged.
Its sign-in page is the site's own (``web.api.auth_urls``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework.renderers import BrowsableAPIRenderer


class BrowsableAPI(BrowsableAPIRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> Any:
        response = (renderer_context or {}).get("response")
        if response is not None:
            response._csp_update = {"style-src-attr": ["'unsafe-inline'"]}
        return super().render(data, accepted_media_type, renderer_context)

    def get_context(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context(*args, **kwargs)
        context["code_style"] = None  # Pygments' CSS would be an inline <style> element
        return context
