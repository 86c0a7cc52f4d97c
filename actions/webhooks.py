"""A club's webhook endpoints (``reach.webhooks``, docs/webhooks.md), as its league
administrators keep them: added (at most ``reach.webhooks.MAX_ENDPOINTS``, the address
checked), their events chosen, their secret rotated (and the replaced one ended early
if need be), turned off and on, deleted."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from reach import outbound, webhooks
from reach.events import TYPES
from reach.models import Endpoint
from tournaments import errors
from tournaments.models import Club

TOO_MANY = gettext_noop("A club has at most %(most)s endpoints; delete one first.")


def add_endpoint(
    club: Club, user: Any, url: str, description: str, events: Iterable[str]
) -> Endpoint:
    """A new endpoint of ``club`` with a secret of its own; refused when the address is
    not one the site may send to (``reach.outbound``) or the club has its most (one
    adder at a time: two at once never pass the limit together)."""
    chosen = _events(events)
    try:
        outbound.check(url)
    except outbound.Refused as refused:
        raise errors.refusal("refused_address", "url", "%(reason)s", reason=str(refused)) from None
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()
        if club.webhook_endpoints.count() >= webhooks.MAX_ENDPOINTS:
            raise errors.too_many("", TOO_MANY, most=webhooks.MAX_ENDPOINTS)
        return Endpoint.objects.create(
            club=club,
            url=url,
            description=description,
            events=chosen,
            secret=webhooks.new_secret(),
            created_by=user if getattr(user, "is_authenticated", False) else None,
        )


def set_events(endpoint: Endpoint, events: Iterable[str]) -> None:
    endpoint.events = _events(events)
    endpoint.save(update_fields=["events"])


def rotate_secret(endpoint: Endpoint) -> None:
    """A new secret at once; the one it replaces signs beside it for
    ``reach.webhooks.OVERLAP`` (Standard Webhooks' rotation: the receiver switches when it
    can, and no message is refused meanwhile), then the new one alone.  Made again
    within that time, the secret just replaced is the one that signs beside the newest:
    an older one no longer signs."""
    with transaction.atomic():
        row = Endpoint.objects.select_for_update().get(pk=endpoint.pk)
        row.previous_secret, row.secret = row.secret, webhooks.new_secret()
        row.previous_until = timezone.now() + webhooks.OVERLAP
        row.save(update_fields=["secret", "previous_secret", "previous_until"])
    endpoint.secret, endpoint.previous_secret, endpoint.previous_until = (
        row.secret,
        row.previous_secret,
        row.previous_until,
    )


def end_previous_secret(endpoint: Endpoint) -> bool:
    """The replaced secret stops signing now, not at the end of its day (the receiver
    has the new one, or the old one leaked); whether one was signing."""
    with transaction.atomic():
        row = Endpoint.objects.select_for_update().get(pk=endpoint.pk)
        signing = webhooks.overlap_until(row) is not None
        row.previous_secret, row.previous_until = "", None
        row.save(update_fields=["previous_secret", "previous_until"])
    endpoint.previous_secret, endpoint.previous_until = "", None
    return signing


def turn(endpoint: Endpoint, on: bool) -> None:
    endpoint.active = on
    endpoint.save(update_fields=["active"])


def delete_endpoint(endpoint: Endpoint) -> None:
    """The endpoint and its deliveries."""
    endpoint.delete()


def _events(events: Iterable[str]) -> list[str]:
    """The event types chosen, in their order; refused when none is one of them."""
    given = set(events)
    chosen = [t for t in TYPES if t in given]
    if not chosen or given - set(TYPES):
        raise errors.refusal(
            "invalid_choice", "events", gettext_noop("Choose among the events listed.")
        )
    return chosen
