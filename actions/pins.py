"""Confirmation at the table with a player's PIN.

In a season that needs confirmation, a seated player confirms a deal on the scorer's
phone: they pick their name and type their own PIN (set on their player page or by a
league administrator, kept hashed like a password).  The confirmation is that player's
(``Deal.confirmed_by_player``, and their account if they have one); who may confirm
what is ``actions.confirmation``'s one rule.

A PIN is not a password.  It is checked here alone, for a :class:`Player` the page
picked from the match's seats, never by Django's ``authenticate``: no sign-in form (the
site's, the admin's, the browsable API's) can ask about a PIN, and nothing but an
account is ever signed in.  Wrong PINs are counted on the player's own row, in the
database every web process shares: after ``SIGN_IN_ATTEMPTS`` wrong PINs in a row that
player's PIN is not checked for ``SIGN_IN_LOCKOUT_SECONDS``, from any phone, however
the request named the player.  The row is locked while the PIN is checked, so guesses
sent at once are counted one after the other.

A player with no PIN yet proves who they are with the first PIN of their night's slip
(``tournaments.pin_slips``), checked and counted here like a PIN; once they choose a PIN
of their own (:func:`choose_first_pin`), only that PIN is checked.
"""

from __future__ import annotations

import datetime as dt
import enum

from django.conf import settings
from django.contrib.auth.hashers import check_password, make_password
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from tournaments import pin_slips
from tournaments.errors import Rejection, error
from tournaments.models import Player

PIN_DIGITS = (4, 8)


class Check(enum.Enum):
    RIGHT = "right"
    WRONG = "wrong"
    LOCKED = "locked"
    """Too many wrong PINs: not checked (the PIN typed may be right)."""
    SLIP = "slip"
    """Right, by the first PIN of the player's slip (they have no PIN of their own)."""


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


def choose_first_pin(player: Player, pin: str) -> bool:
    """A player with no PIN yet chooses one (4 to 8 digits), which ends their slips;
    ``False``: they have one already (set meanwhile, or this is a retry), and it stays."""
    pin = pin.strip()
    if not (pin.isascii() and pin.isdigit() and PIN_DIGITS[0] <= len(pin) <= PIN_DIGITS[1]):
        raise Rejection((error("invalid_pin", "pin", gettext_noop("a PIN is 4 to 8 digits")),))
    hashed = make_password(pin)
    stored = Player.objects.filter(pk=player.pk, pin="").update(
        pin=hashed, pin_failures=0, pin_locked_until=None
    )
    if stored:
        player.pin = hashed
    return bool(stored)


def tries_left(player: Player) -> int:
    """How many more wrong PINs ``player`` may have typed before their PIN is not checked
    for a while (0: it is not checked now), from their row as :func:`check` left it."""
    row = Player.objects.filter(pk=player.pk).values("pin_failures", "pin_locked_until").get()
    if row["pin_locked_until"] is not None and row["pin_locked_until"] > timezone.now():
        return 0
    return max(0, settings.SIGN_IN_ATTEMPTS - row["pin_failures"])


def check(player: Player, pin: str, night_id: int | None = None) -> Check:
    """Whether ``pin`` is ``player``'s PIN, counted against the player's limit; for a
    player with no PIN, whether it is the first PIN of their slip for the night
    ``night_id`` (none: nothing but a PIN is right)."""
    with transaction.atomic():
        row = (
            Player.objects.select_for_update()
            .only("pin", "pin_failures", "pin_locked_until", "created_at")
            .get(pk=player.pk)
        )
        now = timezone.now()
        if row.pin_locked_until is not None and row.pin_locked_until > now:
            return Check.LOCKED
        right = None
        if row.pin:
            right = Check.RIGHT if pin and check_password(pin, row.pin) else None
        elif night_id is not None and pin_slips.is_first_pin(row, night_id, pin):
            right = Check.SLIP
        if right is not None:
            Player.objects.filter(pk=row.pk).update(pin_failures=0, pin_locked_until=None)
            return right
        failures = row.pin_failures + 1
        if failures >= settings.SIGN_IN_ATTEMPTS:
            until = now + dt.timedelta(seconds=settings.SIGN_IN_LOCKOUT_SECONDS)
            Player.objects.filter(pk=row.pk).update(pin_failures=0, pin_locked_until=until)
        else:
            Player.objects.filter(pk=row.pk).update(pin_failures=failures)
        return Check.WRONG
