"""Confirmation at the table with a player's PIN.

In a season that needs confirmation, a seated player confirms a deal on the scorer's
phone: they pick their name and type their own PIN (set on their player page or by a
league administrator, kept hashed like a password).  The confirmation is that player's
(``Deal.confirmed_by_player``, and their account if they have one); who may confirm
what is ``tournaments.confirmation``'s one rule.

A PIN is not a password.  It is checked here alone, for a :class:`Player` the page
picked from the match's seats, never by Django's ``authenticate``: no sign-in form (the
site's, the admin's, the browsable API's) can ask about a PIN, and nothing but an
account is ever signed in.  Wrong PINs are counted on the player's own row, in the
database every web process shares: after ``SIGN_IN_ATTEMPTS`` wrong PINs in a row that
player's PIN is not checked for ``SIGN_IN_LOCKOUT_SECONDS``, from any phone, however
the request named the player.  The row is locked while the PIN is checked, so guesses
sent at once are counted one after the other.
"""

from __future__ import annotations

import datetime as dt
import enum

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from tournaments.models import Player
from tournaments.records import Rejection, error

PIN_DIGITS = (4, 8)


class Check(enum.Enum):
    RIGHT = "right"
    WRONG = "wrong"
    LOCKED = "locked"
    """Too many wrong PINs: not checked (the PIN typed may be right)."""


def set_pin(player: Player, pin: str) -> None:
    """Set (or with ``""`` clear) the player's PIN: 4 to 8 digits.  A new PIN starts
    with no wrong guesses counted."""
    pin = pin.strip()
    if pin and not (pin.isascii() and pin.isdigit() and PIN_DIGITS[0] <= len(pin) <= PIN_DIGITS[1]):
        raise Rejection((error("invalid_pin", "pin", gettext_noop("a PIN is 4 to 8 digits")),))
    player.pin = make_password(pin) if pin else ""
    Player.objects.filter(pk=player.pk).update(
        pin=player.pin, pin_failures=0, pin_locked_until=None
    )


def check(player: Player, pin: str) -> Check:
    """Whether ``pin`` is ``player``'s PIN, counted against the player's limit."""
    with transaction.atomic():
        row = (
            Player.objects.select_for_update()
            .only("pin", "pin_failures", "pin_locked_until")
            .get(pk=player.pk)
        )
        now = timezone.now()
        if row.pin_locked_until is not None and row.pin_locked_until > now:
            return Check.LOCKED
        if row.pin and pin and check_password(pin, row.pin):
            Player.objects.filter(pk=row.pk).update(pin_failures=0, pin_locked_until=None)
            return Check.RIGHT
        failures = row.pin_failures + 1
        if failures >= settings.SIGN_IN_ATTEMPTS:
            until = now + dt.timedelta(seconds=settings.SIGN_IN_LOCKOUT_SECONDS)
            Player.objects.filter(pk=row.pk).update(pin_failures=0, pin_locked_until=until)
        else:
            Player.objects.filter(pk=row.pk).update(pin_failures=failures)
        return Check.WRONG
