"""A club night from attendance to tables: who met whom this season, the proposed
draw (:mod:`tournaments.draw`), and seating the confirmed tables in one transaction."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

import actions.deals
import actions.matches
import engine
from actions.after import announce
from tournaments import access, divisions
from tournaments.draw import GameSizes, NoDraw, Pair, ProposedTable, draw
from tournaments.errors import Rejection, error
from tournaments.models import ClubNight, Deal, Match, Player, Season, Seat, Table
from tournaments.models.nights import (
    FINAL_TAKEN,
    ROUNDS_OUT,
    ROUNDS_PLANNED,
    TABLE_SIZE_OUT,
    TABLE_SIZES,
)
from tournaments.names import night_label, unique_handle

CALENDAR_FIELDS = ("date", "starts_at", "ends_at", "venue", "name")
"""What a calendar shows of a night: a change to any raises its ``sequence`` (iCalendar
SEQUENCE), so that calendar apps replace the entry they hold."""
END_WITHOUT_START = gettext_noop(
    "An end time needs a start time: write when the night begins, or leave both empty."
)
END_AT_START = gettext_noop(
    "The night ends when it begins: write a later end time (after midnight: the next day)."
)


NIGHT_NOT_TOLD_APART = gettext_noop(
    "This season already has a night called “%(label)s”: give this one a short name "
    "(Afternoon, Evening) so that the two are told apart in every list."
)


def save_night(night: ClubNight) -> ClubNight:
    """Store a new or changed club night, as the pages and the API do.  A season has one
    final night: under the season's row lock a second is refused, so that two
    administrators marking two nights at once store one final and get an answer each.
    A table size or rounds planned out of bounds is refused, nothing stored.

    A changed night's date, times, venue or name raise its ``sequence`` by one and set
    ``changed_at``, under the night's row lock and in the save's transaction; a save that
    changes none of them (a retried form, a changed table size) raises nothing.  Whether
    the night is called off, and its sequence, are the stored row's: a form opened before
    the night was called off does not bring it back (:func:`cancel_night`).

    Two nights of a season on one date must be told apart: one with the date, name and
    venue of another (both unnamed at one hall, as an afternoon and an evening would
    be made) is refused on its name, under the same lock, with the other's label.

    A new night with a ``form_key`` (the new-night form's one-time key) that a night of
    the season was stored with is that night sent again (a double tap, Back and Save):
    the stored night is returned (``replayed`` set), nothing changed."""
    _check_plan(night)
    _check_times(night)
    with transaction.atomic():
        Season.objects.select_for_update(no_key=True).filter(pk=night.season_id).first()
        if night.pk is None and night.form_key:
            sent = ClubNight.objects.filter(season_id=night.season_id, form_key=night.form_key)
            if (stored_once := sent.first()) is not None:
                stored_once.replayed = True
                return stored_once
        if night.final and ClubNight.final_taken(night.season_id, night.pk):
            raise Rejection((error("final_taken", "final", FINAL_TAKEN),))
        _check_told_apart(night)
        stored = (
            ClubNight.objects.select_for_update()
            .filter(pk=night.pk)
            .values(*CALENDAR_FIELDS, "sequence", "changed_at", "cancelled_at")
            .first()
            if night.pk
            else None
        )
        if stored is not None:
            night.cancelled_at = stored["cancelled_at"]
            night.sequence, night.changed_at = stored["sequence"], stored["changed_at"]
            if any(getattr(night, f) != stored[f] for f in CALENDAR_FIELDS):
                night.sequence += 1
                night.changed_at = timezone.now()
        night.save()
    return night


def _check_told_apart(night: ClubNight) -> None:
    """Refuse a night that every list would name as another of its season's nights
    (``tournaments.names.night_label``: the date, the name or "Final", the venue)."""

    def called(n: ClubNight) -> tuple[str, str]:
        name = (n.name or "").strip().casefold() or ("\0final" if n.final else "")
        return name, (n.venue or "").strip().casefold()

    others = ClubNight.objects.filter(season_id=night.season_id, date=night.date)
    same = next((o for o in others.exclude(pk=night.pk) if called(o) == called(night)), None)
    if same is not None:
        raise Rejection(
            (error("night_not_told_apart", "name", NIGHT_NOT_TOLD_APART, label=night_label(same)),)
        )


def _check_times(night: ClubNight) -> None:
    """An end time only with a start time, and not the start time itself (an end before
    the start is the next day's: a night past midnight)."""
    if night.ends_at is not None and night.starts_at is None:
        raise Rejection((error("end_without_start", "ends_at", END_WITHOUT_START),))
    if night.ends_at is not None and night.ends_at == night.starts_at:
        raise Rejection((error("end_at_start", "ends_at", END_AT_START),))


HAS_DEALS = gettext_noop(
    "This night has deals: it took place, and is not called off. To hold it on another "
    "day, change its date; to stop it early, end its matches."
)


def cancel_night(night: ClubNight) -> bool:
    """Call the night off: ``cancelled_at`` set, ``sequence`` raised (calendars show it
    cancelled).  A night that has deals (deleted ones too) took place: it is refused
    with what to do instead (change its date, or end its matches), since calling it off
    would leave scores of a night that says it never happened.  A night drawn onto
    tables without a deal may be called off; its tables stay, for when it is brought
    back.  Called off already: nothing changes (``False``), as for a retried tap.  The
    club's players who follow their nights are told (``night.cancelled``), and its
    webhooks."""
    return _set_cancelled(night, cancelled=True)


def restore_night(night: ClubNight) -> bool:
    """Bring a called-off night back: ``cancelled_at`` cleared, ``sequence`` raised.
    Not called off: nothing changes (``False``).  Told as the call-off was
    (``night.restored``)."""
    return _set_cancelled(night, cancelled=False)


def has_deals(night: ClubNight) -> bool:
    """Whether a deal was entered at the night (deleted ones too): it took place."""
    return Deal.objects.filter(match__table__club_night=night).exists()


def _set_cancelled(night: ClubNight, *, cancelled: bool) -> bool:
    with transaction.atomic():
        row = ClubNight.objects.select_for_update().get(pk=night.pk)
        if (row.cancelled_at is not None) == cancelled:
            night.cancelled_at, night.sequence = row.cancelled_at, row.sequence
            return False
        if cancelled and has_deals(row):
            raise Rejection((error("night_has_deals", "", HAS_DEALS),))
        now = timezone.now()
        row.cancelled_at = now if cancelled else None
        row.sequence += 1
        row.changed_at = now
        row.save(update_fields=["cancelled_at", "sequence", "changed_at"])
        if cancelled:
            announce("night.cancelled", night=row.pk)
        else:
            announce("night.restored", night=row.pk, sequence=row.sequence)
    night.cancelled_at, night.sequence, night.changed_at = (
        row.cancelled_at,
        row.sequence,
        row.changed_at,
    )
    return True


def _check_plan(night: ClubNight) -> None:
    """The night's table size and rounds planned, when given, within their bounds."""
    for field, (low, high), problem in [
        ("table_size", TABLE_SIZES, TABLE_SIZE_OUT),
        ("rounds_planned", ROUNDS_PLANNED, ROUNDS_OUT),
    ]:
        value = getattr(night, field)
        if value is not None and not (isinstance(value, int) and low <= value <= high):
            raise Rejection((error("out_of_range", field, problem),))


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
    nobody is named): a table's scorer is a scorer or league administrator of its club."""
    if scorer is None or access.role(scorer, club_id) in (access.Role.SCORER, access.Role.ADMIN):
        return None
    return error("not_a_scorer", path, NOT_A_SCORER, user=scorer.get_username())


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
