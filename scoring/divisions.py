"""A season's divisions ranked, and closing a season into the next (issue 40).

**Ranks in a division.** A division's leaderboard is the season's, counted among the
division's players: its order is the season's ranking (``tournaments.ranking``, with its
qualifying minimum and each game's tie-breaks), its ranks are counted again from 1 inside
the division.  Nothing is stored for it: it is read from the season's lines, so it is
always what a rebuild of the deals would give.

**Closing.** A season's moves are decided on the leaderboard of its first game (the game
it is about; a season of several games lists its main one first).  Between each pair of
neighbouring divisions, the top ``moves`` qualified players of the lower go up and the
bottom ``moves`` of the upper go down (or that per cent of each division, rounded half
up), as a card club's ladder does:

- a player below the qualifying minimum is never promoted, and ranks at the bottom of
  the division (listed apart), so is the first to go down; a placed player who did not
  play at all is below them;
- a player moves once: one promoted out of a middle division is not also relegated;
- a player who played the game without a division is placed in the bottom one ("placed").

:func:`close` stores the administrator's list (the proposal, changed or not) in the
next season — a season of the given name and of this one's visibility, made like this
one when the club has none — as its placements, and each player's move in the player's
history, under the locks it names (one closing of a club at a time, both seasons' rows
in the order of their ids).  A second confirmation finds the season closed and returns
the moves made the first time, changing nothing.

The proposal and the moves list every player, for the club's administrators; other
readers see only the players they may see (``tournaments.divisions.shown``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from dbtools import locks
from engine.match import competition_ranks
from scoring.models import SeasonStanding
from tournaments import seasons
from tournaments.divisions import CLOSED
from tournaments.events import announce
from tournaments.models import Division, Move, MovesBy, Placement, Player, Season
from tournaments.names import normal
from tournaments.records import Rejection, error, refusal

NAME_LENGTH = 200
FILLED = gettext_noop("season %(name)s has its divisions already")
CHANGED = gettext_noop("season %(name)s was renamed meanwhile: name the next season again")
INTO_PUBLIC = gettext_noop(
    "season %(name)s is public and this season is private: close this season into a "
    "private season, or change Public on one of the two first"
)
INTO_PRIVATE = gettext_noop(
    "season %(name)s is private and this season is public: close this season into a "
    "public season, or change Public on one of the two first"
)


@dataclass(frozen=True)
class Line:
    """A player of the closing season as the close page lists them."""

    player: Player
    division: Division | None
    rank: int | None
    """In the division, on the leaderboard of the season's first game (none: not played)."""
    qualified: bool
    going: str
    """The division proposed (or chosen) in the next season; ``""``: none."""
    kind: str


def _moving(size: int, season: Season) -> int:
    if season.moves_by == MovesBy.PERCENT:
        share = Decimal(size * season.moves) / 100
        return int(share.quantize(Decimal(1), rounding=ROUND_HALF_UP))
    return season.moves


def lines(season: Season) -> list[Line]:
    """Every placed player of the season, division by division in the order of their
    leaderboard, then those who played its first game without a division; each with the
    move the season's rule proposes."""
    divisions = list(season.divisions.order_by("order"))
    if not divisions:
        return []
    placements = Placement.objects.filter(season=season).select_related("player")
    division_of = {p.player_id: p.division_id for p in placements}
    players = {p.player_id: p.player for p in placements}
    standing = list(
        SeasonStanding.objects.filter(season=season, game=season.games[0])
        .select_related("player")
        .order_by("rank", "player_id")
    )
    by_division: dict[int | None, list[SeasonStanding]] = {}
    for line in standing:
        by_division.setdefault(division_of.get(line.player_id), []).append(line)
        players.setdefault(line.player_id, line.player)
    ordered: list[list[Line]] = []
    for division in divisions:
        ranked = by_division.get(division.pk, [])
        ranks = competition_ranks({s.player_id: (s.rank,) for s in ranked})
        seen = {s.player_id for s in ranked}
        idle = sorted(
            (p for p, d in division_of.items() if d == division.pk and p not in seen),
            key=lambda p: (players[p].display_name, p),
        )
        ordered.append(
            [
                Line(players[s.player_id], division, ranks[s.player_id], s.qualified, "", "")
                for s in ranked
            ]
            + [Line(players[p], division, None, False, "", "") for p in idle]
        )
    going = {
        line.player.pk: division.name
        for division, group in zip(divisions, ordered, strict=True)
        for line in group
    }
    kind = {pk: Move.Kind.STAY.value for pk in going}
    for upper, lower, above, below in zip(
        ordered, ordered[1:], divisions, divisions[1:], strict=False
    ):
        rising = [x for x in lower if x.qualified and x.rank is not None][
            : _moving(len(lower), season)
        ]
        for up in rising:
            going[up.player.pk], kind[up.player.pk] = above.name, Move.Kind.UP.value
        staying = [x for x in upper if kind[x.player.pk] == Move.Kind.STAY]
        count = _moving(len(upper), season)
        for down in staying[max(0, len(staying) - count) :] if count else []:
            going[down.player.pk], kind[down.player.pk] = below.name, Move.Kind.DOWN.value
    newcomers = [
        Line(players[s.player_id], None, None, s.qualified, divisions[-1].name, Move.Kind.NEW.value)
        for s in by_division.get(None, [])
    ]
    return [
        replace(line, going=going[line.player.pk], kind=kind[line.player.pk])
        for group in ordered
        for line in group
    ] + newcomers


def made(season: Season) -> list[Move]:
    """The moves made when the season closed, in the order the close page lists them."""
    return list(
        Move.objects.filter(season=season)
        .select_related("player")
        .order_by("division", "rank", "player__display_name", "pk")
    )


@dataclass(frozen=True)
class Closed:
    season: Season
    next_season: Season
    moves: list[Move]
    again: bool
    """The season was closed already: nothing was changed."""


def _wanted(name: Any) -> str:
    """The next season's name as given, checked."""
    if not isinstance(name, str) or not name.strip():
        raise refusal("missing_field", "next_season", gettext_noop("name the next season"))
    name = name.strip()
    if len(name) > NAME_LENGTH:
        raise refusal(
            "too_long",
            "next_season",
            gettext_noop("a season's name is at most %(n)s characters"),
            n=NAME_LENGTH,
        )
    return name


def _named(club_id: int, name: str) -> Season | None:
    """The club's season of this name, as names are compared (``Spring`` = ``SPRING``)."""
    return next(
        (s for s in Season.objects.filter(club_id=club_id) if normal(s.name) == normal(name)),
        None,
    )


def _made_like(season: Season, name: str) -> Season:
    """A new season made like ``season`` (its games, visibility, ranking, rules and
    closing rule)."""
    made = Season(
        club_id=season.club_id,
        name=name,
        games=list(season.games),
        require_confirmation=season.require_confirmation,
        public=season.public,
        ranking=season.ranking,
        best_of=season.best_of,
        qualify_by=season.qualify_by,
        qualify_minimum=season.qualify_minimum,
        moves_by=season.moves_by,
        moves=season.moves,
    )
    try:
        made.full_clean()
    except ValidationError as refused:
        first = next(iter(refused.messages), "")
        raise refusal("invalid", "next_season", "%(reason)s", reason=first) from None
    return seasons.save_season(made)


def _one_closing_at_a_time(club_id: int) -> None:
    """Wait for any other closing of the club's seasons to commit (PostgreSQL: a lock on
    the club's closings, held to the end of the transaction, that nothing else takes;
    SQLite writes one transaction at a time anyway).  Not the club's row: accepting an
    invitation locks a player, then the club, and a closing's rows refer to players."""
    locks.until_commit(f"closing seasons of club {club_id}")


def _locked(*pks: int) -> dict[int, Season]:
    """The seasons ``pks`` locked in one statement, in the order of their ids: the order in
    which the seasons' rebuild (``scoring.season_totals``) locks them too, so that two
    transactions never wait for each other's seasons in a circle."""
    rows = Season.objects.select_for_update().filter(pk__in=pks).order_by("pk")
    return {s.pk: s for s in rows}


def _check_next(season: Season, following: Season, name: str) -> None:
    """Refuse a next season that is this one, was renamed meanwhile, has its divisions
    filled already (or is closed), or is not of this season's visibility."""
    if following.pk == season.pk:
        raise refusal("invalid", "next_season", gettext_noop("the next season is another season"))
    if normal(following.name) != normal(name):  # renamed after it was looked up
        raise refusal("conflict", "next_season", CHANGED, name=following.name)
    if following.closed_at is not None or Placement.objects.filter(season=following).exists():
        raise refusal("conflict", "next_season", FILLED, name=following.name)
    if following.public != season.public:
        raise refusal(
            "visibility",
            "next_season",
            INTO_PUBLIC if following.public else INTO_PRIVATE,
            name=following.name,
        )


def close(season: Season, next_name: Any, choices: Mapping[Any, Any] | None = None) -> Closed:
    """Close ``season``: its players placed in the next season as ``choices`` say
    (player id → a division's name, ``""`` for none; a player left out goes as
    proposed), every move kept.  Closed already: the moves made then, nothing changed.

    **Only into a season of the same visibility.**  A public season closes into a public
    one and a private season into a private one; the next season named is refused
    otherwise (400, saying which season is which), and nothing is stored.  A club expects
    its whole ladder to carry on into the next season: leaving out the players the other
    side may not see would drop people from the ladder without anyone noticing (and
    closing a private season into a public one would publish its players), while a next
    season of the other visibility is almost always a box forgotten on the season's
    form.  The administrator makes the two alike (**Public** on either season's form)
    and closes again.
    A next season made by the closing is made like this one, so of its visibility.

    **Locks, in one order.**  A closing first waits for any other closing of the club
    (:func:`_one_closing_at_a_time`: two closings into one new season make it once),
    then locks the closing season and the next one in one statement, in the order of
    their ids (:func:`_locked`), and checks both again under those locks.  Closing A into
    B while B closes into A, or two seasons into one C, at the same moment: one closes,
    the other is refused (400: the season it names has its divisions already), never a
    deadlock, and the refused one writes nothing."""
    choices = choices or {}
    if not isinstance(choices, Mapping):
        raise refusal("invalid", "moves", gettext_noop("say each player's next division"))
    with transaction.atomic():
        _one_closing_at_a_time(season.club_id)
        # Only a closing changes ``closed_at``, and no other closing of the club runs now.
        current = Season.objects.select_related("next_season").get(pk=season.pk)
        if current.closed_at is not None and current.next_season is not None:
            return Closed(current, current.next_season, made(current), True)
        if current.closed_at is not None:  # its next season was deleted since
            raise Rejection((error("closed", "", CLOSED),), conflict=True)
        name = _wanted(next_name)
        following = _named(season.club_id, name) or _made_like(current, name)
        locked = _locked(season.pk, following.pk)
        closing, following = locked[season.pk], locked[following.pk]
        _check_next(closing, following, name)
        proposal = lines(closing)
        if not proposal:
            raise refusal(
                "no_divisions",
                "",
                gettext_noop("the season has no divisions to move players between"),
            )
        listed = {str(line.player.pk): line for line in proposal}
        for key in choices:
            if str(key) not in listed:
                raise refusal(
                    "not_found",
                    "moves",
                    gettext_noop("player %(id)s is not in this season's divisions"),
                    id=str(key)[:20],
                )
        divisions = list(following.divisions.order_by("order"))
        if not divisions:
            divisions = [
                Division.objects.create(season=following, name=d.name, order=d.order)
                for d in closing.divisions.order_by("order")
            ]
        at = {normal(d.name): d for d in divisions}
        chosen: dict[str, Line] = {}
        for key, line in listed.items():
            going = choices.get(key, choices.get(line.player.pk, line.going))
            if going not in ("", None) and (not isinstance(going, str) or normal(going) not in at):
                raise refusal(
                    "invalid_choice",
                    f"moves.{key}",
                    gettext_noop("no division %(name)s in season %(season)s"),
                    name=str(going)[:20],
                    season=following.name,
                )
            target = at[normal(going)].name if going else ""
            chosen[key] = replace(line, going=target, kind=_kind(line.division, target, at))
        Placement.objects.bulk_create(
            Placement(season=following, division=at[normal(x.going)], player=x.player)
            for x in chosen.values()
            if x.going
        )
        Move.objects.bulk_create(
            Move(
                season=closing,
                next_season=following,
                player=x.player,
                kind=x.kind,
                division=x.division.name if x.division else "",
                rank=x.rank,
                next_division=x.going,
            )
            for x in chosen.values()
        )
        closing.closed_at, closing.next_season = timezone.now(), following
        closing.save(update_fields=["closed_at", "next_season"])
        announce("season.closed", season=closing.pk)
    return Closed(closing, following, made(closing), False)


def _kind(division: Division | None, going: str, at: Mapping[str, Division]) -> str:
    if not going:
        return Move.Kind.LEFT.value
    if division is None:
        return Move.Kind.NEW.value
    order = at[normal(going)].order
    if order < division.order:
        return Move.Kind.UP.value
    return Move.Kind.DOWN.value if order > division.order else Move.Kind.STAY.value
