"""The room display's answer kept in the cache (``scoring.live``): computed at most
once per change and per second for every screen and phone polling a night, and
brought up to date by one request or by a worker, never by all of them."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from django.core.cache import cache
from django.core.serializers.json import DjangoJSONEncoder
from django.utils.translation import get_language

from scoring.live import etag, live
from tournaments.models import ClubNight

FRESH_SECONDS = 1.0
"""How long a room display's answer is served as it is, without asking the database."""

KEPT_SECONDS = 3600
"""How long an answer nobody asks for stays in the cache."""


def _live_key(night_id: int, admin: bool, language: str) -> str:
    return f"clubscore:live:{night_id}:{int(admin)}:{language}"


def refresh_live(night: ClubNight, admin: bool) -> tuple[str, bytes]:
    """Bring the room display's answer for ``night`` (the reader's role, the active
    language) up to date in the cache: its ETag asked of the database (one small
    query), the body computed again only when the ETag moved."""
    key = _live_key(night.pk, admin, get_language())
    try:
        kept = cache.get(key)
        tag = etag(night, admin)
        if kept is not None and kept[0] == tag:
            body = kept[1]
        else:
            body = json.dumps(
                live(night, admin), cls=DjangoJSONEncoder, ensure_ascii=False
            ).encode()
        cache.set(key, (tag, body, time.time()), timeout=KEPT_SECONDS)
    finally:
        cache.delete(f"{key}:busy")
    return tag, body


def cached_live(
    night: ClubNight, admin: bool, later: Callable[[], object] | None = None
) -> tuple[str, bytes]:
    """The room display's ETag and JSON body, computed at most once per change and per
    :data:`FRESH_SECONDS` for every phone and screen polling (in the shared cache when
    ``CACHE_URL`` is set, else in each web process): 200 displays polling every 3 s cost
    the database one small check a second, not 67 standings.

    A stale answer is brought up to date by one request while the others are served
    the answer as it was (a second old at most, never blocked behind it); with
    ``later`` (a Celery task on a shared cache), not even that one request waits: it
    asks a worker to refresh and answers what is kept, so that the web processes never
    compute the standings of a watched display (only its very first answer)."""
    key = _live_key(night.pk, admin, get_language())
    kept = cache.get(key)
    if kept is not None and time.time() - kept[2] < FRESH_SECONDS:
        return kept[0], kept[1]
    if kept is not None and not cache.add(f"{key}:busy", 1, timeout=5):
        return kept[0], kept[1]  # another request or a worker is bringing it up to date
    if kept is not None and later is not None:
        later()
        return kept[0], kept[1]
    return refresh_live(night, admin)
