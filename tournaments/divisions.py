"""A season's divisions (issue 40), set by one action that the page and the API call.

A season may have divisions, named by its administrator in order from the top (A, B, C…),
and each of its players placed in at most one.  Each division has its own leaderboards
(the season's ranking, counted among its players: ``scoring.divisions``), and a round of
a club night seats each division at tables of its own unless the administrator draws
them together (``actions.rounds``).  How many players move between neighbouring
divisions when the season closes is the season's ``moves_by`` and ``moves``.

:func:`set_divisions` replaces the divisions and the placements in one transaction under
the season's row lock: the same request sent twice leaves the same divisions.  A closed
season's divisions are what its moves were made from, so they no longer change.

:func:`split` and :func:`snake` share players out among divisions in an order a rule
gives (``scoring.division_rules``: the divisions page fills its selects with them, and
stores nothing until Save); :func:`at_tables` names each table's divisions.

**Who sees whom.**  Placing a player in a public season's division does not make the
player public: a reader who is not of the club sees, of a season's divisions, its
closing proposal and its moves, only the players ``tournaments.access`` shows them
(those seated in a public season's match), never another one's id (:func:`shown`), and
the next season only if they may read it (:func:`next_season_shown`).  So a player of a
private season alone, placed in a public season's division by hand or by a closing,
stays out of every public list until they play in a public season.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext_noop

from tournaments import access, errors
from tournaments.errors import Rejection, error, refusal
from tournaments.models import Division, MovesBy, Placement, Player, Season
from tournaments.names import look_alike
from tournaments.textfile import whole_number

MOST_DIVISIONS = 10
NAME_LENGTH = 20
MOST_MOVES = 100
CLOSED = gettext_noop("the season is closed: its divisions no longer change")


def division_names(names: Any) -> list[str]:
    """The divisions' names as given (a list, or one text of names split by spaces or
    commas), checked: at most ten, each one to twenty characters, none twice (nor two
    that look alike: ``A`` and ``A`` with a zero-width space, ``names.look_alike``)."""
    if isinstance(names, str):
        names = names.replace(",", " ").replace("、", " ").split()
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise refusal("invalid", "names", gettext_noop("list the divisions' names, top first"))
    names = [n.strip() for n in names if n.strip()]
    if len(names) > MOST_DIVISIONS:
        raise errors.too_many(
            "names", gettext_noop("a season has at most %(n)s divisions"), n=MOST_DIVISIONS
        )
    for i, name in enumerate(names):
        if len(name) > NAME_LENGTH:
            raise errors.too_long(
                f"names[{i}]",
                gettext_noop("a division's name is at most %(n)s characters"),
                n=NAME_LENGTH,
            )
        if not look_alike(name):
            raise refusal(
                "invalid",
                f"names[{i}]",
                gettext_noop("name each division with letters or digits"),
            )
    seen = [look_alike(n) for n in names]
    for i, name in enumerate(names):
        if seen.index(seen[i]) != i:
            raise refusal(
                "duplicate",
                f"names[{i}]",
                gettext_noop("division %(name)s is named twice"),
                name=name,
            )
    return names


def moves_rule(moves_by: Any, moves: Any) -> tuple[str, int]:
    """The closing rule as given, checked: a count of players or a per cent, 0 to 100."""
    if moves_by not in MovesBy.values:
        raise refusal(
            "invalid_choice", "moves_by", gettext_noop("moves are counted in players or per cent")
        )
    if isinstance(moves, bool) or not isinstance(moves, int) or not 0 <= moves <= MOST_MOVES:
        raise refusal("out_of_range", "moves", gettext_noop("moves are 0 to %(n)s"), n=MOST_MOVES)
    return moves_by, moves


def set_divisions(
    season: Season,
    names: Any,
    places: Mapping[Any, Any],
    *,
    moves_by: Any = MovesBy.COUNT,
    moves: Any = 2,
) -> list[Division]:
    """Make the season's divisions ``names`` (top first; none: the season has no
    divisions) with ``places`` (player id → a division's name; ``""``: none) and the
    closing rule, all or nothing."""
    names = division_names(names)
    moves_by, moves = moves_rule(moves_by, moves)
    if not isinstance(places, Mapping):
        raise refusal("invalid", "places", gettext_noop("say each player's division"))
    by_name = {look_alike(n): n for n in names}
    wanted: dict[int, str] = {}
    for key, value in places.items():
        player = whole_number(str(key)) if isinstance(key, int | str) else None
        if player is None:
            raise refusal(
                "not_found",
                "places",
                gettext_noop("no player %(id)s in this club"),
                id=str(key)[:20],
            )
        if value in ("", None):
            continue
        if not isinstance(value, str) or look_alike(value) not in by_name:
            raise refusal(
                "invalid_choice",
                f"places.{player}",
                gettext_noop("no division %(name)s in this season"),
                name=str(value)[:NAME_LENGTH],
            )
        wanted[player] = by_name[look_alike(value)]
    known = set(
        Player.objects.filter(club_id=season.club_id, pk__in=list(wanted)).values_list(
            "pk", flat=True
        )
    )
    if unknown := sorted(set(wanted) - known):
        raise refusal(
            "not_found", "places", gettext_noop("no player %(id)s in this club"), id=unknown[0]
        )
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        if locked.closed_at is not None:
            raise Rejection((error("closed", "", CLOSED),), conflict=True)
        Placement.objects.filter(season=season).delete()
        Division.objects.filter(season=season).exclude(name__in=names).delete()
        kept = {d.name: d for d in Division.objects.filter(season=season)}
        # Orders move out of the way first: (season, order) is unique.
        Division.objects.filter(season=season).update(order=F("order") + 1000)
        made = []
        for order, name in enumerate(names):
            division = kept.get(name) or Division(season=season, name=name, order=order)
            division.order = order
            division.save()
            made.append(division)
        at = {d.name: d for d in made}
        Placement.objects.bulk_create(
            Placement(season=season, division=at[name], player_id=player)
            for player, name in sorted(wanted.items())
        )
        Season.objects.filter(pk=season.pk).update(moves_by=moves_by, moves=moves)
        season.moves_by, season.moves = moves_by, moves
    return made


def carried(
    places: Mapping[int, str], before: Sequence[str], after: Sequence[str]
) -> dict[int, str]:
    """``places`` made with the divisions ``before`` (a form's selects), for the divisions
    ``after``: as many divisions renamed keep their players in order (A, B → Gold,
    Silver); a division gone takes its players out of every division."""
    renamed = dict(zip(before, after, strict=True)) if len(before) == len(after) else {}
    out = {player: renamed.get(name, name) for player, name in places.items()}
    return {player: name for player, name in out.items() if name in after}


def shares(count: int, divisions: int) -> list[int]:
    """``count`` players over ``divisions``, as evenly as possible, top first: the top
    divisions take the extra ones (7 over 2: 4 and 3)."""
    base, extra = divmod(count, divisions)
    return [base + (1 if i < extra else 0) for i in range(divisions)]


def split(order: Sequence[int], unknown: Sequence[int], names: Sequence[str]) -> dict[int, str]:
    """Player id → division: ``order`` (best first) down the divisions ``names`` (top
    first) in shares as even as possible, counted over every player, the top ones taking
    the extra; the ``unknown`` players (nothing to rank them by) in the bottom division,
    the others then shared among the divisions above when they fill it."""
    if not names:
        return {}
    quotas = shares(len(order) + len(unknown), len(names))
    if len(names) > 1 and len(unknown) > quotas[-1]:
        quotas = [*shares(len(order), len(names) - 1), 0]
    out: dict[int, str] = {}
    rest = list(order)
    for name, quota in zip(names[:-1], quotas, strict=False):
        out |= {p: name for p in rest[:quota]}
        rest = rest[quota:]
    return out | {p: names[-1] for p in [*rest, *unknown]}


def snake(order: Sequence[int], names: Sequence[str]) -> dict[int, str]:
    """Player id → division, ``order`` dealt in a snake (A B B A A B…): divisions of
    even strength, sized as evenly as possible, the top ones taking the extra."""
    if not names:
        return {}
    room = shares(len(order), len(names))
    lap = [*range(len(names)), *reversed(range(len(names)))]
    out: dict[int, str] = {}
    turn = 0
    for player in order:
        while not room[lap[turn % len(lap)]]:  # a full division's turn passes on
            turn += 1
        room[lap[turn % len(lap)]] -= 1
        out[player] = names[lap[turn % len(lap)]]
        turn += 1
    return out


def placed(season: Season) -> dict[int, Division]:
    """Player id → the player's division in ``season``."""
    lines = Placement.objects.filter(season=season).select_related("division")
    return {p.player_id: p.division for p in lines}


def groups(season: Season, players: Sequence[int]) -> list[tuple[Division | None, list[int]]]:
    """``players`` by division, top first, in their given order; those placed in none last
    (``None``).  A season without divisions is one group."""
    division_of = placed(season)
    if not division_of:
        return [(None, list(players))]
    divisions = sorted(set(division_of.values()), key=lambda d: d.order)
    out: list[tuple[Division | None, list[int]]] = [
        (d, [p for p in players if division_of.get(p) == d]) for d in divisions
    ]
    out.append((None, [p for p in players if p not in division_of]))
    return [(d, ps) for d, ps in out if ps]


def at_tables(season: Season, tables: Sequence[Sequence[int]]) -> list[list[Division | None]]:
    """The divisions of each table's players, top first (``None``: a player in none, last);
    for a season without divisions, nothing at every table."""
    division_of = placed(season)
    if not division_of:
        return [[] for _ in tables]
    out = []
    for table in tables:
        found = {division_of.get(p) for p in table}
        out.append(sorted(found, key=lambda d: (d is None, d.order if d else 0)))
    return out


def shown(season: Season, players: Iterable[int], user: Any) -> set[int]:
    """Of ``players`` (ids in ``season``'s divisions, proposal or moves), those ``user``
    may see: every player of the club for its members, for others only the players
    ``tournaments.access`` shows them."""
    ids = set(players)
    if not ids:
        return ids
    rows = Player.objects.filter(club_id=season.club_id, pk__in=ids)
    return set(access.visible(rows, user).values_list("pk", flat=True))


def next_season_shown(season: Season, user: Any) -> Season | None:
    """The season ``season`` closed into, when ``user`` may read it; else ``None`` (a
    season the reader may not read is not named, not even by its id)."""
    if season.next_season_id is None:
        return None
    return access.visible(Season.objects.filter(pk=season.next_season_id), user).first()
