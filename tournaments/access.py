"""Who may read and change what: roles per club (issue 6).

- **Site operator** (a superuser): every club; runs the Django admin.
- **League administrator** (``Membership.Role.ADMIN``): everything of their
  club: players, seasons, club nights, tables, matches, deals (entering,
  correcting, deleting, restoring, reopening finished matches, history).
- **Scorer** (``Membership.Role.SCORER``): reads their club; starts matches and
  enters and corrects the deals of the tables whose ``scorer`` they are.
- **Member** (``Membership.Role.MEMBER``): reads their club.  A member who is
  seated in a match (``Player.user``) may confirm its deals.
- **Anyone**, signed in or not: reads the seasons marked ``public`` (their
  leaderboards, club nights, matches, deals, score sheets and exports), and
  nothing else.  Of the club's players, only those seated in a public
  season's match are visible (their names are on its leaderboard).

Every query of the API, the pages and the exports goes through ``visible``;
an object outside it answers 404 (its existence is not revealed), an object
that can be read but not changed answers 403.
"""

from __future__ import annotations

from functools import reduce
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, Model, OuterRef, Q, QuerySet, Value
from django.utils.translation import gettext as _

from tournaments.models import (
    Club,
    ClubNight,
    Deal,
    DealScore,
    Match,
    Membership,
    Player,
    Season,
    Seat,
    Table,
)

M = TypeVar("M", bound=Model)

_NIGHT = "club_night__season"
_TABLE = f"table__{_NIGHT}"
_MATCH = f"match__{_TABLE}"

PATHS: dict[type[Model], tuple[str, str | None]] = {
    Club: ("pk", None),
    Membership: ("club", None),
    Player: ("club", None),
    Season: ("club", ""),
    ClubNight: ("season__club", "season"),
    Table: (f"{_NIGHT}__club", _NIGHT),
    Match: (f"{_TABLE}__club", _TABLE),
    Deal: (f"{_MATCH}__club", _MATCH),
    DealScore: (f"deal__{_MATCH}__club", f"deal__{_MATCH}"),
}
"""Each model's path to its club, and to its season (``None``: never public).
Apps above the league add theirs with :func:`scope`."""

MATCH_PATH = _MATCH
"""The path from a row of a match (``match__…``) to its season, for :func:`scope`."""


def scope(model: type[Model], club: str, season: str | None) -> None:
    """Make ``model`` readable through :func:`visible`: its path to its club and season."""
    PATHS[model] = (club, season)


Role = Membership.Role

KEEP_TABLES = (Role.SCORER, Role.ADMIN)
"""The roles in a club whose holders may be named a table's scorer (``actions.seating``)."""


def signed_in(user: Any) -> User:
    """The signed-in user who makes a change (anyone else is refused: 403)."""
    if not isinstance(user, User):
        raise PermissionDenied(_("Sign in first."))
    return user


def is_operator(user: Any) -> bool:
    return bool(user.is_authenticated and user.is_superuser)


def _memberships(user: Any, roles: tuple[str, ...] | None = None) -> QuerySet[Membership]:
    rows = Membership.objects.filter(user=user)
    return rows.filter(role__in=roles) if roles else rows


def visible(queryset: QuerySet[M], user: Any) -> QuerySet[M]:
    """The rows of ``queryset`` that ``user`` may read."""
    if is_operator(user):
        return queryset
    club_path, season_path = PATHS[queryset.model]
    allowed = Q(pk__in=[])
    if user.is_authenticated:
        allowed = Q(**{f"{club_path}__in": _memberships(user).values("club")})
    if season_path is not None:
        allowed |= Q(**{"__".join(filter(None, [season_path, "public"])): True})
    if queryset.model is Player:  # named on a public leaderboard already
        allowed |= Q(seen_by_anyone())
    return queryset.filter(allowed)


def seen_by_anyone() -> Exists:
    """Whether a player is seated in a public season's match, so anyone may read them (as
    an expression of the player's row).  Asked per player from the index of a player's
    seats (``seat_player_latest``), not by listing every seat of every public season."""
    return Exists(Seat.objects.filter(player=OuterRef("pk"), **{f"match__{_TABLE}__public": True}))


def in_the_club(user: Any) -> Exists | Value:
    """Whether ``user`` is a member of the row's club (an expression of a player's row)."""
    if not user.is_authenticated:
        return Value(False)
    return Exists(Membership.objects.filter(user=user, club=OuterRef("club")))


def administered(queryset: QuerySet[M], user: Any) -> QuerySet[M]:
    """The rows of ``queryset`` in the clubs that ``user`` administers."""
    if is_operator(user):
        return queryset
    club_path, _season = PATHS[queryset.model]
    clubs = _memberships(user, (Role.ADMIN,)).values("club") if user.is_authenticated else []
    return queryset.filter(**{f"{club_path}__in": clubs})


def administered_clubs(user: Any) -> set[int] | None:
    """The ids of the clubs ``user`` administers (``None``: every club, a site operator)."""
    if user is None or not user.is_authenticated:
        return set()
    if is_operator(user):
        return None
    return set(_memberships(user, (Role.ADMIN,)).values_list("club", flat=True))


def club_id(obj: Model) -> int:
    """The id of the club ``obj`` belongs to (follows the foreign keys of ``PATHS``)."""
    path = PATHS[type(obj)][0]
    if path == "pk":
        return obj.pk
    *through, last = path.split("__")
    return getattr(reduce(getattr, through, obj), f"{last}_id")


def role(user: Any, club: int) -> str | None:
    if not user.is_authenticated:
        return None
    return _memberships(user).filter(club_id=club).values_list("role", flat=True).first()


def can_administer(user: Any, obj: Model) -> bool:
    return can_administer_club(user, club_id(obj))


def can_administer_club(user: Any, club: int) -> bool:
    return is_operator(user) or role(user, club) == Role.ADMIN


def scores_table(user: Any, table: Table) -> bool:
    """Administrators of the club, and the table's own scorer while a scorer of the club."""
    if is_operator(user):
        return True
    held = role(user, club_id(table))
    return held == Role.ADMIN or (held == Role.SCORER and table.scorer_id == user.pk)


def can_confirm(user: Any, match: Match) -> bool:
    """Who may confirm the match's deals: a scorer or administrator of the club, or a
    member seated in the match (never whoever decided the deal: ``actions.confirmation``)."""
    if is_operator(user):
        return True
    held = role(user, club_id(match))
    if held in (Role.ADMIN, Role.SCORER):
        return True
    return held == Role.MEMBER and match.seats.filter(player__user=user).exists()


def scored_tables(queryset: QuerySet[Table], user: Any) -> QuerySet[Table]:
    """The tables whose deals ``user`` may enter (see ``scores_table``)."""
    if is_operator(user):
        return queryset
    if not user.is_authenticated:
        return queryset.none()
    scorer_of = _memberships(user, (Role.SCORER,)).values("club")
    return administered(queryset, user) | queryset.filter(
        scorer=user, club_night__season__club__in=scorer_of
    )


def person(user: Any, club: int, *, fallback: bool = False) -> str | None:
    """How ``club`` names an account: the display name of its player there, or its full
    name; with ``fallback`` (readers who manage the club's accounts) its user name.
    ``None`` for no account, or nothing to say."""
    if user is None:
        return None
    name = (
        Player.objects.filter(club_id=club, user=user)
        .values_list("display_name", flat=True)
        .first()
        or user.get_full_name()
    )
    return name or (user.get_username() if fallback else None)


def members(user: Any) -> QuerySet[Any]:
    """The accounts ``user`` may name (a table's scorer, a player's account): the members of
    the clubs they administer; every account for a site operator."""
    accounts = get_user_model().objects.all()
    if is_operator(user):
        return accounts
    return accounts.filter(memberships__club__in=administered(Club.objects.all(), user)).distinct()
