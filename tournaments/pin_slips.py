"""PIN slips: a first PIN for each player who has none, printed for a club night.

On a first night nobody has a PIN, and a player without an account cannot set one; yet
in a season that asks for confirmation a seated player's PIN is what confirms a deal at
the table.  So a league administrator prints the night's **PIN slips** (one per present
player without a PIN, or per player of the club when nobody's attendance was taken),
cuts them and hands each player their own.  A slip's six digits then do what a PIN does,
on the PIN pages of that night's tables only: confirm a deal, say who scores on a phone.
Right after, the player may choose their own PIN on the spot, which ends the slip.

**The first PIN is derived, never stored**: an HMAC of the site's ``SECRET_KEY``
(Django's ``salted_hmac``, SHA-256, its own salt) over the player's id, the night's id
and the player's creation time, read as a number and cut to six digits.  Hence:

- printing stores nothing, and printing again gives the same slips;
- a slip holds for its night's tables alone: an old slip found later confirms nothing
  of another night;
- a slip holds only while the player has no PIN of their own: it dies the moment they
  set one (on the phone, on their page, or by an administrator), since
  ``actions.pins.check`` asks a player with a PIN for that PIN and nothing else;
- nobody can work a slip out without ``SECRET_KEY`` (changing the key changes every
  slip not yet used).

A slip is checked by ``actions.pins.check``, so a wrong slip is a wrong PIN: counted
on the player's row and locked after ``SIGN_IN_ATTEMPTS`` (a million codes against five
tries).  Whoever entered a deal never confirms it with their slip either: the one rule
of ``actions.confirmation`` does not ask how the player proved who they are.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.utils.crypto import constant_time_compare, salted_hmac

from tournaments.models import ClubNight, Player
from tournaments.names import reading_order

DIGITS = 6
SALT = "clubscore.tournaments.pin_slips"


def first_pin(player: Player, night_id: int) -> str:
    """The six digits of ``player``'s slip for the night ``night_id``."""
    value = f"{player.pk}:{night_id}:{player.created_at.isoformat()}"
    digest = salted_hmac(SALT, value, algorithm="sha256").digest()
    return f"{int.from_bytes(digest[:8], 'big') % 10**DIGITS:0{DIGITS}d}"


def looks_like_slip(typed: str) -> bool:
    """Whether ``typed`` could be a slip at all (six ASCII digits)."""
    return len(typed) == DIGITS and typed.isascii() and typed.isdigit()


def is_first_pin(player: Player, night_id: int, typed: str) -> bool:
    """Whether ``typed`` is ``player``'s slip of the night (not counted here)."""
    return looks_like_slip(typed) and constant_time_compare(typed, first_pin(player, night_id))


def slip_players(night: ClubNight) -> list[Player]:
    """Who gets a slip for ``night``: its present players and those seated at its tables,
    or every player of the club if neither; only those with no PIN, in reading order."""
    players: QuerySet[Player] = Player.objects.filter(club_id=night.season.club_id)
    came = players.filter(
        Q(pk__in=night.present.values("pk")) | Q(seats__match__table__club_night=night)
    )
    if came.exists():
        players = came
    return reading_order(players.filter(pin="").distinct())
