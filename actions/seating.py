"""A night's tables and who sits at them: attendance kept, the draw proposed for the
present players (:mod:`tournaments.draw`, knowing who met whom this season), the
confirmed tables seated in one transaction, and a table's scorer and name saved."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext_noop

import actions.matches
import engine
from actions.after import announce
from tournaments import access, divisions
from tournaments.draw import GameSizes, NoDraw, Pair, ProposedTable, draw
from tournaments.errors import Rejection, error
from tournaments.models import ClubNight, Match, Membership, Player, Seat, Table
from tournaments.names import unique_handle


def game_sizes(names: Sequence[str]) -> list[GameSizes]:
    return [
        GameSizes(n, engine.GAMES[n].player_counts, engine.GAMES[n].best_players) for n in names
    ]


def pair_history(night: ClubNight) -> dict[Pair, int]:
    """How often each pair of players shared a match this season before ``night``."""
    seats = (
        Seat.objects.filter(match__table__club_night__season_id=night.season_id)
        .exclude(match__table__club_night=night)
        .values_list("match_id", "player_id")
    )
    by_match: dict[int, list[int]] = defaultdict(list)
    for match_id, player_id in seats:
        by_match[match_id].append(player_id)
    met: dict[Pair, int] = defaultdict(int)
    for players in by_match.values():
        for pair in combinations(players, 2):
            met[frozenset(pair)] += 1
    return dict(met)


def propose(
    night: ClubNight, players: Sequence[int], games: Sequence[str], seed: int, mixed: bool = False
) -> list[ProposedTable]:
    """The draw for the present ``players`` (ids) and the night's ``games``; in a season
    with divisions, each division at tables of its own (top first; guests and players
    without a division after them), unless ``mixed``."""
    rng, sizes, met = random.Random(seed), game_sizes(games), pair_history(night)
    groups = [(None, list(players))] if mixed else divisions.groups(night.season, players)
    tables: list[ProposedTable] = []
    for division, group in groups:
        try:
            tables += draw(group, sizes, met, rng)
        except NoDraw as exc:
            if division is None:
                raise
            raise NoDraw(f"{division.name}: {exc}") from None
    return tables


@dataclass(frozen=True)
class Guest:
    """Someone typed at attendance who is not a player of the club yet: drawn under a
    number of their own (below zero), made a player only when the tables are seated."""

    pk: int
    display_name: str

    @property
    def shown_name(self) -> str:
        return self.display_name


@dataclass(frozen=True)
class PlannedTable:
    """A table as the administrator confirms it: its game, players in seat order, scorer."""

    game: str
    players: Sequence[Player | Guest]
    scorer: User | None = None


NOT_A_SCORER = gettext_noop("%(user)s is not a scorer of this club")
NO_SUCH_SCORER = gettext_noop("no such scorer in this club")


def scorer_problem(scorer: Any, club_id: int, path: str = "scorer") -> dict[str, str] | None:
    """Why ``scorer`` may not keep a table's score in the club (``None``: they may, or
    nobody is named): a table's scorer is a scorer or league administrator of its club.
    An account outside the club is "no such scorer", as an id nobody has: its name is
    not said (else any club's administrator could list the site's accounts by id)."""
    if scorer is None:
        return None
    held = access.role(scorer, club_id)
    if held in access.KEEP_TABLES:
        return None
    if held is None:
        return error("not_a_scorer", path, NO_SUCH_SCORER)
    return error("not_a_scorer", path, NOT_A_SCORER, user=scorer.get_username())


def scorers_at(club_id: int, players: Sequence[Player]) -> set[int]:
    """The accounts of ``players`` that may keep the club's tables (one query; none when
    no player has an account)."""
    users = {p.user_id for p in players if p.user_id is not None}
    if not users:
        return set()
    return set(
        Membership.objects.filter(
            club_id=club_id,
            user_id__in=users,
            role__in=access.KEEP_TABLES,
        ).values_list("user_id", flat=True)
    )


def seated_scorer(seated: Sequence[Player | Guest], may_score: set[int]) -> int | None:
    """A table's scorer as a club expects it: the first of its players, in seat order,
    whose account may keep the club's tables (``None``: nobody at it may; its phone
    link is the way; a guest has no account)."""
    accounts = (getattr(p, "user_id", None) for p in seated)
    return next((user for user in accounts if user in may_score), None)


def set_scorer(table: Table, scorer: Any) -> None:
    """Make ``scorer`` the table's scorer (``None``: nobody), e.g. a scorer who joined
    the club after the night was drawn."""
    if (problem := scorer_problem(scorer, table.club_night.season.club_id)) is not None:
        raise Rejection((problem,))
    Table.objects.filter(pk=table.pk).update(scorer=scorer)
    table.scorer = scorer


TABLE_NAME_TAKEN = gettext_noop(
    "This night has a table called “%(name)s” already: give this one another name."
)


def save_table(table: Table) -> Table:
    """Store a new or changed table of a night, as the API does (a draw seats its own:
    :func:`seat_night`).  Under the night's row lock, so that two requests at once store
    one: a name another table of the night has (outside the rounds, which name their
    tables again) is refused on ``name``, and a scorer who may not keep the club's
    tables on ``scorer``; a refused table stores nothing."""
    night = table.club_night
    with transaction.atomic():
        ClubNight.objects.select_for_update(no_key=True).filter(pk=night.pk).first()
        problems = []
        if (problem := scorer_problem(table.scorer, night.season.club_id)) is not None:
            problems.append(problem)
        same_name = Table.objects.filter(club_night=night, round=table.round_id, name=table.name)
        if same_name.exclude(pk=table.pk).exists():
            problems.append(error("table_name_taken", "name", TABLE_NAME_TAKEN, name=table.name))
        if problems:
            raise Rejection(tuple(problems))
        table.save()
    return table


def take_attendance(night: ClubNight, present: Sequence[int]) -> None:
    """Keep who came to the night (the club's players among ``present``; guests become
    players only when seated): the rounds page starts round 1 from them."""
    players = Player.objects.filter(club_id=night.season.club_id, pk__in=present)
    night.present.set(players)


class AlreadySeated(Rejection):
    """Every player of the draw sits at a table of the night already: the same draw was
    confirmed before (a double tap, Back and send again, two administrators at once)."""


def seat_night(night: ClubNight, tables: Sequence[PlannedTable]) -> list[Match]:
    """Create the night's tables, matches and seats, and the guests' players, all or
    nothing.  Every player sits once; each table is checked as
    :func:`actions.matches.create_match` checks a match.  Under the night's row lock, a player
    seated at the night already is refused (:class:`AlreadySeated` when the whole draw
    was): the same draw sent twice seats nobody twice and creates no guest twice."""
    problems: list[dict[str, str]] = []
    seen: dict[int, int] = {}
    for i, planned in enumerate(tables):
        if not planned.players:
            problems.append(
                error("missing_player", f"tables[{i}]", gettext_noop("a table needs players"))
            )
        for player in planned.players:
            if player.pk in seen:
                problems.append(
                    error(
                        "duplicate_player",
                        f"tables[{i}]",
                        gettext_noop("%(display_name)s sits at table %(number)s already"),
                        display_name=player.display_name,
                        number=seen[player.pk] + 1,
                    )
                )
            seen[player.pk] = i
        scorer = scorer_problem(planned.scorer, night.season.club_id, f"tables[{i}].scorer")
        if scorer is not None:
            problems.append(scorer)
    if problems:
        raise Rejection(tuple(problems))
    made: list[Match] = []
    with transaction.atomic():
        ClubNight.objects.select_for_update().filter(pk=night.pk).exists()
        _not_seated_yet(night, [p for t in tables for p in t.players])
        existing = set(night.tables.values_list("name", flat=True))
        names = (f"Table {n}" for n in range(1, 1000) if f"Table {n}" not in existing)
        players = _with_guests_made(night, tables)
        for i, planned in enumerate(tables):
            table = Table.objects.create(club_night=night, name=next(names), scorer=planned.scorer)
            try:
                made.append(actions.matches.create_match(table, planned.game, players[i]))
            except Rejection as rejection:
                raise Rejection(
                    tuple(
                        {**e, "path": f"tables[{i}].{e['path']}".rstrip(".")}
                        for e in rejection.errors
                    )
                ) from None
        if made:
            announce("round.drawn", night=night.pk, table=made[0].table_id)
    return made


def _not_seated_yet(night: ClubNight, planned: Sequence[Player | Guest]) -> None:
    seated = {
        (seat.player_id, seat.player.display_name): seat.match.table.name
        for seat in Seat.objects.filter(match__table__club_night=night).select_related(
            "player", "match__table"
        )
    }
    by_id = {pid: table for (pid, _name), table in seated.items()}
    by_name = {name: table for (_pid, name), table in seated.items()}
    found = [
        (p.display_name, by_id.get(p.pk) if isinstance(p, Player) else by_name.get(p.display_name))
        for p in planned
    ]
    taken = [(name, table) for name, table in found if table is not None]
    if not taken:
        return
    problems = tuple(
        error(
            "already_seated",
            "players",
            gettext_noop("%(display_name)s sits at %(table)s tonight already"),
            display_name=name,
            table=table,
        )
        for name, table in taken
    )
    raise (AlreadySeated if len(taken) == len(planned) else Rejection)(problems)


def _with_guests_made(night: ClubNight, tables: Sequence[PlannedTable]) -> list[list[Player]]:
    """Each table's players, the guests made players of the club (handles from names)."""
    club = night.season.club
    taken = set(Player.objects.filter(club=club).values_list("handle", flat=True))
    out: list[list[Player]] = []
    for planned in tables:
        seated: list[Player] = []
        for person in planned.players:
            if isinstance(person, Guest):
                handle = unique_handle(person.display_name, taken)
                taken.add(handle)
                person = Player.objects.create(
                    club=club, handle=handle, display_name=person.display_name
                )
            seated.append(person)
        out.append(seated)
    return out
