"""Joining a club without the site operator (issue 29, 1): a new club by sign-up, members
by one-time invitation links, and password reset links made by a league administrator.

- :func:`start_club` makes an account's club, the account its league administrator.
  Sign-up is open to strangers, so it is limited: ``SIGN_UPS_PER_ADDRESS`` clubs a day
  from one address, ``CLUBS_PER_ACCOUNT`` clubs started by one account (settings; counted
  in ``SignUp`` rows under a lock per address, so sign-ups sent at once are counted one
  after the other).  A club's name, and a new account's, may not look like one that
  exists (``tournaments.names.look_alike``: ``Kanda`` with a Cyrillic ``а``, a zero-width
  space, full-width letters); a refused name is answered without saying whose it is, and
  two sign-ups of one name at the same moment make one, the other refused in words.
- :func:`invite` makes a link with a role (and optionally the player it belongs to); it
  expires after :data:`VALID_DAYS` days, can be revoked, and is used once:
  :func:`accept` takes the invitation's row lock, so two people following one link at the
  same moment make one member, and the second is refused.  Following it again as the same
  account changes nothing.  An invitation never lowers a role the account holds already.
- :func:`may_reset` says whose password a league administrator may reset: an account
  whose every membership is in clubs the administrator administers, never a site
  operator or staff account (a reset link is the account: an administrator of one club
  must not take over someone's rights in another).
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_noop

from actions import members as club_members
from dbtools import locks
from tournaments import access, errors
from tournaments.errors import Rejection, error
from tournaments.models import AccountName, Club, Invitation, Membership, Player, SignUp
from tournaments.names import look_alike, romaji

VALID_DAYS = 14
"""How long an invitation link works."""

RANK = {Membership.Role.MEMBER: 0, Membership.Role.SCORER: 1, Membership.Role.ADMIN: 2}

GONE = gettext_noop("this invitation link has been used, revoked or has expired: ask for a new one")


def club_slug(name: str) -> str:
    """The club's address from its name: romaji for Japanese names, a number when taken."""
    base = slugify(romaji(name))[:50].strip("-") or "club"
    slug, n = base, 1
    while Club.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


NAME_TAKEN = gettext_noop("this name is taken, or looks like a name that is: choose another")
TOO_MANY_SIGN_UPS = gettext_noop(
    "too many clubs were started from this address today: try again tomorrow"
)
TOO_MANY_CLUBS = gettext_noop("an account starts at most %(n)s clubs")
DAY = dt.timedelta(days=1)


def start_club(user: Any, name: str, address: str = "") -> Club:
    """A new club named ``name`` with ``user`` its league administrator, started from
    ``address`` (the client's; counted against the limits above)."""
    name = name.strip()
    if not look_alike(name):
        raise errors.missing("club", gettext_noop("name the club"))
    with transaction.atomic():
        locks.until_commit(f"sign-up {address}")
        since = timezone.now() - DAY
        if (
            SignUp.objects.filter(address=address, at__gt=since).count()
            >= settings.SIGN_UPS_PER_ADDRESS
        ):
            raise Rejection((error("rate_limited", "club", TOO_MANY_SIGN_UPS),))
        if SignUp.objects.filter(user=user).count() >= settings.CLUBS_PER_ACCOUNT:
            raise Rejection((error("limit", "club", TOO_MANY_CLUBS, n=settings.CLUBS_PER_ACCOUNT),))
        if Club.objects.filter(name_key=look_alike(name)).exists():
            raise Rejection((error("name_taken", "club", NAME_TAKEN),))
        try:
            with transaction.atomic():
                club = Club.objects.create(name=name, slug=club_slug(name))
        except IntegrityError:  # the same name at the same moment
            raise Rejection((error("name_taken", "club", NAME_TAKEN),)) from None
        Membership.objects.create(club=club, user=user, role=Membership.Role.ADMIN)
        SignUp.objects.create(address=address, user=user, club=club)
    return club


def name_looks_taken(username: str) -> bool:
    """A new account's user name looks like an existing account's."""
    return AccountName.objects.filter(key=look_alike(username)).exists()


def keep_account_name(sender: Any, instance: Any, **kwargs: Any) -> None:
    """Connected to the user model's ``post_save``: the account's name as it looks."""
    AccountName.objects.update_or_create(
        user_id=instance.pk, defaults={"key": look_alike(instance.get_username())}
    )


NO_SUCH_PLAYER = gettext_noop("no such player in this club")
HAS_ACCOUNT = gettext_noop("%(player)s has an account already: they sign in with it")
ONE_PLAYER = gettext_noop(
    "your account is the player %(player)s of this club already: an account is one player"
)
NOT_YOURS = gettext_noop(
    "this invitation is for another account: sign in as the person it was made for"
)


MEANT_FOR_LENGTH = 80
TOO_LONG = gettext_noop("“For whom” takes at most %(n)s characters")


def invite(
    club: Club,
    made_by: Any,
    role: str,
    player: Player | None = None,
    account: Any = None,
    meant_for: str = "",
) -> Invitation:
    """A link with ``role`` (and ``player``, whose account the person becomes); with
    ``account``, only that account may accept it (adding an existing account to the club
    asks for its consent).  ``meant_for`` is whom the administrator made it for, in their
    words, so that the list of links says it."""
    meant_for = " ".join(meant_for.split())
    if len(meant_for) > MEANT_FOR_LENGTH:
        raise errors.too_long("meant_for", TOO_LONG, n=MEANT_FOR_LENGTH)
    if role not in Membership.Role.values:
        raise Rejection(
            (error("invalid_choice", "role", gettext_noop("%(role)s is not a role"), role=role),)
        )
    if player is not None and player.club_id != club.pk:
        raise Rejection((error("not_found", "player", NO_SUCH_PLAYER),))
    if player is not None and player.user_id is not None:
        raise Rejection((error("has_account", "player", HAS_ACCOUNT, player=player.display_name),))
    return Invitation.objects.create(
        club=club,
        token=secrets.token_urlsafe(24),
        role=role,
        player=player,
        account=account,
        meant_for=meant_for,
        made_by=made_by,
        expires_at=timezone.now() + dt.timedelta(days=VALID_DAYS),
    )


def usable(token: str) -> Invitation | None:
    """The invitation of ``token`` while it can be used (else ``None``)."""
    found = Invitation.objects.select_related("club", "player").filter(token=token).first()
    return found if found is not None and found.usable else None


def accept(token: str, user: Any) -> Membership:
    """Make ``user`` a member as the invitation says, once."""
    with transaction.atomic():
        invitation = (
            Invitation.objects.select_for_update()
            .select_related("club")
            .filter(token=token)
            .first()
        )
        if invitation is None:
            raise Rejection((error("gone", "", GONE),))
        if invitation.used_by_id == user.pk and invitation.used_at is not None:
            return Membership.objects.get(club=invitation.club, user=user)  # followed again
        if not invitation.usable:
            raise Rejection((error("gone", "", GONE),))
        if invitation.account_id is not None and invitation.account_id != user.pk:
            raise Rejection((error("not_yours", "", NOT_YOURS),))
        if invitation.player_id is not None:
            _one_player(invitation, user)
        held = Membership.objects.filter(club=invitation.club, user=user).first()
        role = invitation.role
        if held is not None and RANK[Membership.Role(held.role)] >= RANK[Membership.Role(role)]:
            membership = held
        else:
            membership = club_members.set_role(invitation.club, user, role)
        if invitation.player_id is not None:
            Player.objects.filter(pk=invitation.player_id).update(user=user)
        invitation.used_by = user
        invitation.used_at = timezone.now()
        invitation.save(update_fields=["used_by", "used_at"])
    return membership


def _one_player(invitation: Invitation, user: Any) -> None:
    """An invitation for a player binds one person: refused when the player has an
    account, or the account is another player of the club (under the player's lock)."""
    player = Player.objects.select_for_update().get(invitations=invitation)
    if player.user_id is not None and player.user_id != user.pk:
        raise Rejection((error("has_account", "", HAS_ACCOUNT, player=player.display_name),))
    other = (
        Player.objects.filter(club_id=invitation.club_id, user=user).exclude(pk=player.pk).first()
    )
    if other is not None:
        raise Rejection((error("one_player", "", ONE_PLAYER, player=other.display_name),))


def revoke(invitation: Invitation) -> None:
    Invitation.objects.filter(pk=invitation.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


def may_reset(administrator: Any, account: Any) -> bool:
    """Whether ``administrator`` may make a password reset link for ``account``."""
    if account.is_superuser or account.is_staff or account.pk == administrator.pk:
        return False
    clubs = set(account.memberships.values_list("club_id", flat=True))
    return bool(clubs) and all(access.can_administer_club(administrator, c) for c in clubs)
