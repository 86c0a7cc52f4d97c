"""Standard Webhooks deliveries to a club's own endpoints (docs/webhooks.md).

:func:`deliver` stores one :class:`~reach.models.Delivery` per event and endpoint of the
event's club that chose its type (inserted ignoring conflicts: a retried or concurrent
fan-out stores nothing twice) and answers the new ones' ids, which ``reach.tasks``
sends after the commit.  A send
is signed as Standard Webhooks says (``webhook-id``, ``webhook-timestamp``,
``webhook-signature``, with the endpoint's ``whsec_`` secret, by the reference
``standardwebhooks`` library); a 2xx answer is delivered, anything else is tried again
after the delays of :data:`RETRY_DELAYS`, then given up.

What is due is kept in the row (``next_attempt_at``), never in a process's memory: the
periodic :func:`send_due` (Celery beat, ``settings.CELERY_BEAT_SCHEDULE``) sends it.  An
attempt is *claimed* first, by a conditional UPDATE that moves ``next_attempt_at`` past a
lease and counts the attempt: of two workers only one claims it, and a worker that dies
mid-send leaves it to be claimed again once the lease is over (a receiver may so get one
message twice, with the same ``webhook-id``, as Standard Webhooks allows).

The URL is checked again at every send, and the address checked is the one connected to
(``reach.outbound``).  A delivery is sent only while its endpoint is active and the
season it speaks of is still its club's.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import logging
import secrets
from typing import Any

import urllib3
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from standardwebhooks import Webhook

from reach import outbound
from reach.events import TYPES, Event
from reach.models import Delivery, Endpoint
from tournaments.models import Season

log = logging.getLogger(__name__)

PING = "ping"
"""The test event an administrator sends from the webhooks page (to one endpoint)."""
RETRY_DELAYS = (
    dt.timedelta(seconds=5),
    dt.timedelta(minutes=5),
    dt.timedelta(minutes=30),
    dt.timedelta(hours=2),
    dt.timedelta(hours=5),
    dt.timedelta(hours=10),
    dt.timedelta(hours=10),
)
"""Standard Webhooks' suggested schedule: after a failed attempt ``n`` (1, 2, …), the next
one waits ``RETRY_DELAYS[n - 1]``; eight attempts over about 27 hours, then given up."""
ATTEMPTS = len(RETRY_DELAYS) + 1
TIMEOUT = 10.0
"""Seconds an endpoint has to answer."""
LEASE = dt.timedelta(minutes=2)
"""How long a claimed attempt is the claimer's (well over the time a send may take)."""
SWEEP = 100
"""At most this many attempts per run of :func:`send_due`."""
OPEN = (Delivery.Status.PENDING, Delivery.Status.RETRYING)
MAX_ENDPOINTS = 10
"""Endpoints a club may have."""

ERRORS: dict[str, Any] = {
    "refused": _("address not allowed"),
    "timeout": _("no answer in time"),
    "connection": _("could not connect"),
    "certificate": _("its HTTPS certificate was not accepted"),
    "redirect": _("redirect not followed"),
    "status": _("not a 2xx answer"),
    "disabled": _("endpoint disabled"),
    "season": _("the season is not the club's"),
    "internal": _("an error of the site"),
}
"""What went wrong, by the key kept in ``Delivery.error`` (``key`` or ``key: detail``)."""


def new_secret() -> str:
    """A ``whsec_`` secret: 32 random bytes, base64 (Standard Webhooks: 24 to 64)."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


OVERLAP = dt.timedelta(hours=24)
"""How long a replaced secret signs beside the new one (``actions.webhooks.rotate_secret``)."""


def signatures(endpoint: Endpoint, message_id: str, at: dt.datetime, body: str) -> str:
    """The ``webhook-signature`` header: the secret's signature, and the replaced
    secret's beside it (space-separated, as Standard Webhooks lists several) while
    ``at`` is within its overlap."""
    signed = Webhook(endpoint.secret).sign(message_id, at, body)
    until = overlap_until(endpoint)
    if until is not None and at < until:
        signed += " " + Webhook(endpoint.previous_secret).sign(message_id, at, body)
    return signed


def overlap_until(endpoint: Endpoint) -> dt.datetime | None:
    """Until when the replaced secret signs too (``None``: it does not now)."""
    until = endpoint.previous_until
    if endpoint.previous_secret and until is not None and timezone.now() < until:
        return until
    return None


def new_message_id() -> str:
    return "msg_" + secrets.token_urlsafe(20)


def _payload(kind: str, data: dict[str, Any]) -> dict[str, Any]:
    """Standard Webhooks' recommended shape: type, timestamp (ISO 8601), data."""
    at = timezone.now().astimezone(dt.UTC).isoformat(timespec="milliseconds")
    return {"type": kind, "timestamp": at.replace("+00:00", "Z"), "data": data}


def deliver(event: Event) -> list[int]:
    """Store one Delivery per (event, endpoint) that chose its type; the ids of those new
    (``reach.tasks.fan_out`` sends them after the commit).  A delivery already stored for
    the event, by a retried or concurrent fan-out, is not stored again nor returned."""
    if event.type not in TYPES:
        return []  # a player's message only ("deal.waiting")
    if not Season.objects.filter(pk=event.season, club_id=event.club).exists():
        log.warning("webhook %s: season %s is not club %s's", event.id, event.season, event.club)
        return []
    chosen = [
        e
        for e in Endpoint.objects.filter(club_id=event.club, active=True)
        if event.type in e.events
    ]
    if not chosen:
        return []
    payload = _payload(event.type, {"season": event.season, **event.data})
    made = Delivery.objects.bulk_create(
        [
            Delivery(
                endpoint=endpoint,
                event=event.id,
                message_id=new_message_id(),
                event_type=event.type,
                payload=payload,
                next_attempt_at=timezone.now(),
            )
            for endpoint in chosen
        ],
        ignore_conflicts=True,
    )
    # The rows this call inserted are those with the message ids it drew (a conflict
    # inserts nothing, so keeps the message id stored first).
    mine = [d.message_id for d in made]
    return list(
        Delivery.objects.filter(event=event.id, message_id__in=mine)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def ping(endpoint: Endpoint) -> int:
    """A test event to this endpoint alone (the administrator's "send a test event"); its
    delivery's id (``reach.tasks.send_test_event`` sends it after the commit)."""
    delivery = Delivery.objects.create(
        endpoint=endpoint,
        event=f"{PING}:{secrets.token_urlsafe(12)}",
        message_id=new_message_id(),
        event_type=PING,
        payload=_payload(PING, {"endpoint": endpoint.pk}),
        next_attempt_at=timezone.now(),
    )
    return delivery.pk


def claim(pk: int, now: dt.datetime) -> bool:
    """Take attempt ``attempts + 1`` of a due delivery; ``False`` when another has it, it
    is not due, or it is done (one conditional UPDATE: of two workers only one wins)."""
    return (
        Delivery.objects.filter(pk=pk, status__in=OPEN, next_attempt_at__lte=now).update(
            next_attempt_at=now + LEASE, attempts=F("attempts") + 1
        )
        == 1
    )


def send_now(pk: int, now: dt.datetime | None = None) -> bool:
    """Claim and send one delivery if it is due (a worker's task); whether it was sent."""
    now = now or timezone.now()
    if not claim(pk, now):
        return False
    _attempt_safely(pk, now)
    return True


def send_due(now: dt.datetime | None = None, limit: int = SWEEP) -> int:
    """Send what is due at ``now`` (the periodic sweep): each row claimed under
    ``SKIP LOCKED``, so sweeps running at once take different rows.  How many were sent."""
    now = now or timezone.now()
    sent = 0
    while sent < limit:
        with transaction.atomic():
            pk = (
                Delivery.objects.select_for_update(skip_locked=True)
                .filter(status__in=OPEN, next_attempt_at__lte=now)
                .order_by("next_attempt_at", "pk")
                .values_list("pk", flat=True)
                .first()
            )
            if pk is None or not claim(pk, now):
                break
        _attempt_safely(pk, now)
        sent += 1
    return sent


def _attempt_safely(pk: int, now: dt.datetime) -> None:
    """An attempt that fails in the site itself is counted like one the endpoint failed
    (never claimed for ever)."""
    try:
        attempt(pk, now)
    except Exception:
        log.exception("webhook delivery %s", pk)
        _finish(Delivery.objects.get(pk=pk), now, error="internal")


def attempt(pk: int, now: dt.datetime) -> None:
    """Send a claimed delivery once and keep what came of it."""
    delivery = Delivery.objects.select_related("endpoint").get(pk=pk)
    endpoint = delivery.endpoint
    season = delivery.payload.get("data", {}).get("season")
    if not endpoint.active:
        _finish(delivery, now, error="disabled", final=True)
        return
    if season is not None and not Season.objects.filter(pk=season, club=endpoint.club_id).exists():
        _finish(delivery, now, error="season", final=True)
        return
    body = json.dumps(delivery.payload, ensure_ascii=False, separators=(",", ":"))
    at = dt.datetime.now(dt.UTC)  # the signature's time is the real one, whatever ``now``
    headers = {
        "content-type": "application/json",
        "user-agent": "Clubscore-Webhooks/1",
        "webhook-id": delivery.message_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": signatures(endpoint, delivery.message_id, at, body),
    }
    try:
        answer = outbound.post(endpoint.url, body.encode(), headers, TIMEOUT)
    except outbound.Refused:
        _finish(delivery, now, error="refused")
        return
    except (urllib3.exceptions.TimeoutError, TimeoutError):
        _finish(delivery, now, error="timeout")
        return
    except urllib3.exceptions.SSLError:
        _finish(delivery, now, error="certificate")
        return
    except (urllib3.exceptions.HTTPError, OSError) as failed:
        _finish(delivery, now, error=f"connection: {type(failed).__name__}")
        return
    if 200 <= answer.status < 300:
        _finish(delivery, now, status=answer.status, delivered=True)
    else:
        key = "redirect" if 300 <= answer.status < 400 else "status"
        detail = " ".join(answer.excerpt.split())[: outbound.EXCERPT_BYTES]
        _finish(delivery, now, status=answer.status, error=f"{key}: {detail}" if detail else key)


def _finish(
    delivery: Delivery,
    now: dt.datetime,
    *,
    status: int | None = None,
    error: str = "",
    delivered: bool = False,
    final: bool = False,
) -> None:
    """Keep an attempt's result: delivered, retried after the schedule's delay, or given up.
    Written only while the claim is this attempt's (the same ``attempts``)."""
    if delivered:
        changes: dict[str, Any] = {
            "status": Delivery.Status.DELIVERED,
            "next_attempt_at": None,
            "delivered_at": timezone.now(),
            "error": "",
        }
    elif final or delivery.attempts >= ATTEMPTS:
        changes = {"status": Delivery.Status.FAILED, "next_attempt_at": None, "error": error}
    else:
        changes = {
            "status": Delivery.Status.RETRYING,
            "next_attempt_at": now + RETRY_DELAYS[delivery.attempts - 1],
            "error": error,
        }
    changes["response_status"] = status
    changes["error"] = changes["error"][:500]
    Delivery.objects.filter(pk=delivery.pk, attempts=delivery.attempts).update(**changes)


def error_words(delivery: Delivery) -> str:
    """A delivery's error in the reader's language (the key's words, then the detail)."""
    key, _colon, detail = delivery.error.partition(": ")
    words = ERRORS.get(key)
    if words is None:
        return delivery.error
    return f"{words}: {detail}" if detail else str(words)
