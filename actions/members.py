"""Who belongs to a club and in which role, changed so that a club always keeps a league
administrator (issue 28, 5).

Every change of a role goes through :func:`set_role` or :func:`remove` (the members page),
or is checked by :func:`check_administrators` once saved (the Django admin's club form).
Each one takes the club's row lock, then counts the administrators the change leaves, in
the same transaction: two administrators demoting each other at the same moment run one
after the other, and the second is refused.
(Locking the administrators' own rows would not do: ``select_for_update().count()`` locks
nothing, and the rows a demotion must see are the other administrators'.)
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext_noop

from tournaments.errors import Rejection, error
from tournaments.models import Club, Membership, Player

LAST_ADMIN = gettext_noop("the club keeps at least one league administrator")


def set_role(club: Club, user: Any, role: str) -> Membership:
    """Make ``user`` a member of ``club`` in ``role`` (added, or their role changed)."""
    if role not in Membership.Role.values:
        raise Rejection(
            (error("invalid_choice", "role", gettext_noop("%(role)s is not a role"), role=role),)
        )
    with transaction.atomic():
        _lock(club)
        membership, _created = Membership.objects.get_or_create(
            club=club, user=user, defaults={"role": role}
        )
        if membership.role != role:
            if membership.role == Membership.Role.ADMIN:
                _keep_an_administrator(club, leaving=membership)
            membership.role = role
            membership.save(update_fields=["role"])
    return membership


def remove(membership: Membership) -> None:
    """Take a member out of their club."""
    with transaction.atomic():
        _lock(membership.club)
        if Membership.objects.filter(pk=membership.pk, role=Membership.Role.ADMIN).exists():
            _keep_an_administrator(membership.club, leaving=membership)
        Membership.objects.filter(pk=membership.pk).delete()


def check_administrators(club: Club) -> None:
    """After a change made elsewhere (the admin's inline forms), under the club's lock:
    refuse it when no administrator is left."""
    _lock(club)
    if not club.memberships.filter(role=Membership.Role.ADMIN).exists():
        raise Rejection((error("last_admin", "role", LAST_ADMIN),))


def _lock(club: Club) -> None:
    Club.objects.select_for_update().filter(pk=club.pk).exists()


def _keep_an_administrator(club: Club, leaving: Membership) -> None:
    others = club.memberships.filter(role=Membership.Role.ADMIN).exclude(pk=leaving.pk)
    if not others.exists():
        raise Rejection((error("last_admin", "role", LAST_ADMIN),))


NOT_A_MEMBER = gettext_noop("%(name)s is not a member of the club: invite them first")
ONE_PLAYER = gettext_noop("%(name)s is the player %(player)s already: an account is one player")


def account_problem(club_id: int, account: Any, player_id: int | None) -> dict[str, Any] | None:
    """Why ``account`` cannot be the account of player ``player_id`` (``None``: a new
    player) of the club: it must be a member of the club, and no other player's there."""
    if account is None:
        return None
    name = account.get_username()
    if not Membership.objects.filter(club_id=club_id, user=account).exists():
        return error("not_a_member", "user", NOT_A_MEMBER, name=name)
    others = Player.objects.filter(club_id=club_id, user=account)
    taken = (others.exclude(pk=player_id) if player_id is not None else others).first()
    if taken is not None:
        return error("one_player", "user", ONE_PLAYER, name=name, player=taken.display_name)
    return None
