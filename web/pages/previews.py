"""The link previews' images (``scoring.preview_images``): ``/seasons/N/preview.png`` and
``/nights/N/preview.png``, in the language of the link (``?lang=ja``, see
``web.previews.LanguageInLink``).

- **Public objects only**, asked as an anonymous reader whoever asks (the reader is never
  read: an image URL may be pasted anywhere, and the answer is the same for all): a
  private season's or night's image answers 404 to everyone, its members too, and a
  season made private stops answering at once.
- **Drawn once per version**: the card (what the image says) is read in a few queries;
  its hash is the ETag (``If-None-Match`` answers 304) and the version of the PNG kept in
  the cache, one slot per object and language (``CACHES``: shared by every web process
  when ``CACHE_URL`` is set), so a crawler asking again costs those queries, never a
  drawing.  ``Cache-Control: public`` lets the crawlers' and proxies' caches keep it a
  while.
"""

from __future__ import annotations

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404
from django.utils.cache import patch_cache_control
from django.utils.http import parse_etags
from django.views.decorators.http import require_safe

from scoring import preview_images
from web.previews import public_nights, public_seasons

MAX_AGE = 600
"""Seconds a crawler or a proxy may keep an image without asking again."""
KEPT_SECONDS = 7 * 24 * 3600
"""How long a drawn image nobody asks for stays in the cache: one slot per object and
language, which a newer version replaces (what is kept is bounded by the objects)."""


@require_safe
def season_image(request: HttpRequest, pk: int) -> HttpResponse:
    season = get_object_or_404(public_seasons(), pk=pk)
    return _picture(request, f"season:{pk}", preview_images.season_card(season))


@require_safe
def night_image(request: HttpRequest, pk: int) -> HttpResponse:
    night = get_object_or_404(public_nights(), pk=pk)
    return _picture(request, f"night:{pk}", preview_images.night_card(night))


def _picture(request: HttpRequest, key: str, card: preview_images.Card) -> HttpResponse:
    version = card.version()
    etag = f'"{version}"'
    asked = parse_etags(request.headers.get("If-None-Match", ""))
    if etag in asked or "*" in asked:
        response: HttpResponse = HttpResponseNotModified()
    else:
        slot = f"clubscore:preview:{key}:{card.language}"
        kept = cache.get(slot)
        if kept is not None and kept[0] == version:
            data = kept[1]
        else:
            data = preview_images.render(card)
            cache.set(slot, (version, data), timeout=KEPT_SECONDS)
        response = HttpResponse(data, content_type="image/png")
    response["ETag"] = etag
    patch_cache_control(response, public=True, max_age=MAX_AGE)
    return response
