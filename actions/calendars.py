"""A member's secret calendar address (``web.ical``): made, and made again to replace a
leaked one, once however often the request is sent.  And the club's time zone, where
the calendars read its nights' times."""

from __future__ import annotations

import hmac
import secrets

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_noop

from tournaments import errors
from tournaments.models import Club, Membership
from tournaments.models.league import valid_time_zone

NOT_A_ZONE = gettext_noop("%(zone)s is not a time zone: write it as Asia/Tokyo or Europe/London.")


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


def set_time_zone(club: Club, zone: str) -> None:
    """The club's time zone: a name of the IANA database (Asia/Tokyo), checked here."""
    try:
        valid_time_zone(zone)
    except ValidationError:
        raise errors.refusal("invalid_time_zone", "time_zone", NOT_A_ZONE, zone=zone) from None
    Club.objects.filter(pk=club.pk).update(time_zone=zone)
    club.time_zone = zone
