"""A member's secret calendar address (``web.ical``): made, and made again to replace a
leaked one, once however often the request is sent."""

from __future__ import annotations

import hmac
import secrets

from django.db import transaction

from tournaments.models import Membership


def new_token() -> str:
    """A feed's secret: 32 random bytes, URL-safe base64."""
    return secrets.token_urlsafe(32)


def replace_calendar_address(membership: Membership, replacing: str) -> bool:
    """Give the member a new secret address in place of ``replacing`` (``""``: they had
    none); the old one stops at once.  ``False``, changing nothing, when ``replacing`` is
    no longer theirs: the same request sent twice replaces the address once."""
    with transaction.atomic():
        row = Membership.objects.select_for_update().get(pk=membership.pk)
        if not hmac.compare_digest(row.calendar_token.encode(), replacing.encode()):
            return False
        row.calendar_token = membership.calendar_token = new_token()
        row.save(update_fields=["calendar_token"])
    return True
