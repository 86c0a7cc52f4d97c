"""Web Push to players (issue 58, 1): a player follows themselves from "my night" or their
page, no account needed, and chooses what to be told (``PushKind``).

:func:`tell` stores one ``Notice`` per event and subscription (unique on both: a retried
or concurrent fan-out inserts nothing twice), each in the subscription's own language,
for the subscriptions that chose the kind and still have the right to read the season
(``reach.rights``); after the commit, Celery tasks send the new ones in small batches
(``reach.tasks.send_later``, :func:`send`).  The sender takes each notice with ``SELECT … FOR UPDATE SKIP
LOCKED`` while it is still waiting, checks the right again (revoked meanwhile: skipped,
nothing sent), posts it (VAPID-signed, encrypted for the browser, ``pywebpush``) and
marks it sent or failed in the same transaction: two workers never send one notice.  A
push service that answers 404 or 410 has forgotten the browser: the subscription is
dropped, as it is after ``FAILURES_DROPPED`` failures in a row.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import requests
from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone, translation
from pywebpush import WebPushException, webpush

from tournaments.models import ClubNight, Player

from . import rights, subscriptions, vapid
from .events import Event, Said
from .models import Notice, Subscription

BATCH = 10
"""Notices a task sends: small, so that several workers share a big event."""
TIMEOUT = 10.0
"""Seconds a push service has to answer."""
TTL = 3600
"""How long a push service keeps a message for a phone that is off (a table drawn an
hour ago is news no more)."""
FAILURES_DROPPED = 5
"""A subscription whose push service refused this many messages in a row (not a 404 or
410, which drop it at once) is dropped: a made-up address at a push service, or a phone
long gone, is not posted to for ever, nor kept among a player's ``PUBLIC_PHONES``."""
PAYLOAD_BYTES = 3000
"""Push services take about 4 KB encrypted; the body is shortened to fit."""

Status = Notice.Status


def tell(event: Event) -> list[int]:
    """Store the event's notices; the ids of those new, for ``reach.tasks.send_later`` once the
    transaction commits (``reach.tasks.fan_out`` does).  A notice already stored for the
    event, by a retried or concurrent fan-out, is neither stored again nor returned."""
    said: dict[int, list[Said]] = {}
    for s in event.told:
        said.setdefault(s.player, []).append(s)
    if not said:
        return []
    rows: list[Notice] = []
    may_tell = rights.teller(event.season, event.night)
    for sub in Subscription.objects.filter(player_id__in=said).select_related("user"):
        chosen = next((s for s in said[sub.player_id] if s.kind in sub.kinds), None)
        if chosen is None or not may_tell(sub):
            continue
        with translation.override(sub.language):
            title, body = chosen.words()
        rows.append(
            Notice(
                event=event.id,
                kind=chosen.kind,
                subscription=sub,
                player_id=sub.player_id,
                season_id=event.season,
                night_id=event.night,
                title=str(title)[:200],
                body=str(body)[:1000],
                url=chosen.url[:500],
            )
        )
    if not rows:
        return []
    stored = Notice.objects.filter(event=event.id).values_list("pk", flat=True)
    before = set(stored)
    Notice.objects.bulk_create(rows, ignore_conflicts=True)
    return sorted(set(stored.filter(status=Status.PENDING)) - before)


def payload(notice: Notice) -> str:
    """What the service worker shows (``static/clubscore/sw.js``), within the size allowed."""
    body = notice.body
    while True:
        text = json.dumps(
            {"title": notice.title, "body": body, "url": notice.url, "tag": notice.event},
            ensure_ascii=False,
        )
        if len(text.encode()) <= PAYLOAD_BYTES or not body:
            return text
        body = body[: max(0, len(body) - 40)]


def _post(sub: Subscription, notice: Notice) -> None:
    """Post one message (raises ``WebPushException`` for an answer above 202)."""
    subscriptions.check_endpoint(sub.endpoint)  # resolved again now
    session = requests.Session()
    session.max_redirects = 0  # a push service does not redirect: none is followed
    try:
        webpush(
            {"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh, "auth": sub.auth}},
            payload(notice),
            vapid_private_key=vapid.key(),
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            timeout=TIMEOUT,
            ttl=TTL,
            headers={"Urgency": "high"},
            requests_session=session,
        )
    finally:
        session.close()


def send(pk: int) -> str | None:
    """Send notice ``pk`` if it still waits and nobody else is sending it; its new status."""
    gone = failed = False
    with transaction.atomic():
        notice = Notice.objects.select_for_update(skip_locked=True).filter(
            pk=pk, status=Status.PENDING
        )
        found = notice.first()
        if found is None:
            return None  # sent, skipped, or being sent by another worker
        sub = (
            Subscription.objects.select_related("user").filter(pk=found.subscription_id).first()
            if found.subscription_id
            else None
        )
        found.error = ""
        if (
            sub is None
            or found.kind not in sub.kinds
            or not rights.may_tell(sub, found.season_id, found.night_id)
        ):
            found.status = Status.SKIPPED  # turned off or lost the right meanwhile
        else:
            try:
                _post(sub, found)
            except subscriptions.Refused as refused:
                found.status, found.error, failed = Status.FAILED, str(refused)[:500], True
            except WebPushException as refused:
                code = getattr(refused.response, "status_code", None)
                gone = code in (404, 410)
                failed = not gone
                found.status = Status.GONE if gone else Status.FAILED
                found.error = f"{code or ''} {refused.message}".strip()[:500]
            except requests.RequestException as broken:
                found.status, found.error, failed = Status.FAILED, type(broken).__name__, True
            else:
                found.status, found.sent_at = Status.SENT, timezone.now()
        found.save(update_fields=["status", "error", "sent_at"])
    if sub is not None and gone:  # expired at the push service: dropped
        Subscription.objects.filter(pk=sub.pk).delete()
    elif sub is not None and failed:
        Subscription.objects.filter(pk=sub.pk).update(failures=F("failures") + 1)
        Subscription.objects.filter(pk=sub.pk, failures__gte=FAILURES_DROPPED).delete()
    elif sub is not None and sub.failures and found.status == Status.SENT:
        Subscription.objects.filter(pk=sub.pk).update(failures=0)
    return found.status


def send_all(ids: Iterable[int]) -> None:
    for pk in ids:
        send(pk)


def _night_players(night: ClubNight) -> Any:
    return Player.objects.filter(
        Q(seats__match__table__club_night=night) | Q(pk__in=night.present.values("pk"))
    ).distinct()


def audience(night: ClubNight) -> int:
    """The players of the night that a message of the night would reach now (a
    subscription that chose something and may be told)."""
    reached: set[int] = set()
    may_tell = rights.teller(night.season_id, night.pk)
    subs = Subscription.objects.filter(
        player__in=_night_players(night).values("pk")
    ).select_related("user")
    for sub in subs.exclude(kinds=[]).order_by("player_id"):
        if sub.player_id not in reached and may_tell(sub):
            reached.add(sub.player_id)
    return len(reached)


def failed(night: ClubNight) -> int:
    """Messages of the night that did not arrive (a push service refused them, or the
    phone's subscription had expired)."""
    return Notice.objects.filter(night=night, status__in=[Status.FAILED, Status.GONE]).count()
