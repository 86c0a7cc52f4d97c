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
next season — a season of the given name, made like this one when the club has none —
as its placements, and each player's move in the player's history, all under the
season's row lock.  A second confirmation finds the season closed and returns the moves
made the first time, changing nothing.
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

from engine.match import competition_ranks
from scoring.models import SeasonStanding
from tournaments import seasons
from tournaments.models import Division, Move, MovesBy, Placement, Player, Season
from tournaments.names import normal
from tournaments.records import refusal

NAME_LENGTH = 200


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


def _next_season(season: Season, name: Any) -> Season:
    """The season the divisions move on to: the club's season of this name, or a new one
    made like ``season`` (its games, ranking, rules and closing rule)."""
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
    same = [
        s
        for s in Season.objects.select_for_update().filter(club_id=season.club_id)
        if normal(s.name) == normal(name)
    ]
    if same:
        found = same[0]
        if found.pk == season.pk:
            raise refusal(
                "invalid", "next_season", gettext_noop("the next season is another season")
            )
        if found.closed_at is not None or Placement.objects.filter(season=found).exists():
            raise refusal(
                "conflict",
                "next_season",
                gettext_noop("season %(name)s has its divisions already"),
                name=found.name,
            )
        return found
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


def close(season: Season, next_name: Any, choices: Mapping[Any, Any] | None = None) -> Closed:
    """Close ``season``: its players placed in the next season as ``choices`` say
    (player id → a division's name, ``""`` for none; a player left out goes as
    proposed), every move kept.  Closed already: the moves made then, nothing changed."""
    choices = choices or {}
    if not isinstance(choices, Mapping):
        raise refusal("invalid", "moves", gettext_noop("say each player's next division"))
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        if locked.closed_at is not None and locked.next_season is not None:
            return Closed(locked, locked.next_season, made(locked), True)
        proposal = lines(locked)
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
        following = _next_season(locked, next_name)
        divisions = list(following.divisions.order_by("order"))
        if not divisions:
            divisions = [
                Division.objects.create(season=following, name=d.name, order=d.order)
                for d in locked.divisions.order_by("order")
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
                season=locked,
                next_season=following,
                player=x.player,
                kind=x.kind,
                division=x.division.name if x.division else "",
                rank=x.rank,
                next_division=x.going,
            )
            for x in chosen.values()
        )
        locked.closed_at, locked.next_season = timezone.now(), following
        locked.save(update_fields=["closed_at", "next_season"])
    return Closed(locked, following, made(locked), False)


def _kind(division: Division | None, going: str, at: Mapping[str, Division]) -> str:
    if not going:
        return Move.Kind.LEFT.value
    if division is None:
        return Move.Kind.NEW.value
    order = at[normal(going)].order
    if order < division.order:
        return Move.Kind.UP.value
    return Move.Kind.DOWN.value if order > division.order else Move.Kind.STAY.value
