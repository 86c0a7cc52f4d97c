"""Confirmation at the table with a player's PIN (issue 29, 3).

In a season that needs confirmation, a seated player confirms a deal on the scorer's
phone: they pick their name and type their own PIN (set on their player page or by a
league administrator, kept hashed like a password).  The check is Django's
``authenticate`` with :class:`PinBackend`, so django-axes limits PIN guesses exactly as
it limits passwords (per player and client address).  The confirmation is that
player's (``Deal.confirmed_by_player``, and their account if they have one), never the
one who entered or changed the deal: the second-person rule of issue 24 holds.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_noop

from tournaments import progress
from tournaments.models import Deal, Player
from tournaments.records import Rejection, error

PIN_DIGITS = (4, 8)
PREFIX = "pin:"
NOT_SEATED = gettext_noop("only a player seated at the table confirms its deals")
SAME_PERSON = gettext_noop(
    "the deal must be confirmed by someone other than who entered or changed it"
)
CONFIRMED = gettext_noop("deal %(number)s is confirmed already")


def set_pin(player: Player, pin: str) -> None:
    """Set (or with ``""`` clear) the player's PIN: 4 to 8 digits."""
    pin = pin.strip()
    if pin and not (pin.isascii() and pin.isdigit() and PIN_DIGITS[0] <= len(pin) <= PIN_DIGITS[1]):
        raise Rejection((error("invalid_pin", "pin", gettext_noop("a PIN is 4 to 8 digits")),))
    player.pin = make_password(pin) if pin else ""
    Player.objects.filter(pk=player.pk).update(pin=player.pin)


class PinBackend:
    """``authenticate(request, username="pin:<player id>", password=<PIN>)`` answers the
    player whose PIN it is (a Player, not an account: it signs nobody in)."""

    def authenticate(
        self, request: HttpRequest | None, username: str | None = None, password: str | None = None
    ) -> Any:
        if not username or not username.startswith(PREFIX) or not password:
            return None
        number = username.removeprefix(PREFIX)
        player = Player.objects.filter(pk=int(number)).first() if number.isdigit() else None
        if player is None or not player.pin or not check_password(password, player.pin):
            return None
        return player

    def get_user(self, user_id: int) -> None:
        return None  # never a session's user


def check(request: HttpRequest, player: Player, pin: str) -> bool:
    """The PIN is the player's (counted by django-axes; a locked-out request answers
    ``False`` and carries ``axes_locked_out``)."""
    found = authenticate(request, username=f"{PREFIX}{player.pk}", password=pin)
    return isinstance(found, Player) and found.pk == player.pk


def confirm(deal: Deal, player: Player) -> Deal:
    """``player``, seated in the deal's match, confirms it (the PIN checked by the caller)."""
    with transaction.atomic():
        locked = Deal.objects.select_for_update().select_related("match").get(pk=deal.pk)
        if not locked.match.seats.filter(player=player).exists():
            raise Rejection((error("not_seated", "player", NOT_SEATED),))
        if player.user_id is not None and not locked.may_be_confirmed_by(player.user_id):
            raise Rejection((error("same_person", "", SAME_PERSON),))
        if locked.confirmed_at is not None:
            confirmed = error("already_confirmed", "", CONFIRMED, number=locked.number)
            raise Rejection((confirmed,), conflict=True, existing=locked)
        locked.confirmed_by = player.user
        locked.confirmed_by_player = player
        locked.confirmed_at = timezone.now()
        locked.save(update_fields=["confirmed_by", "confirmed_by_player", "confirmed_at"])
        progress.changed(locked.match_id, deals_changed=False)
    return locked
