"""A match's progress, kept with the match so that the next deal is checked without
reading the deals before it.

``Match.state`` holds the last deal number (deleted deals keep theirs), the seats
(handle and player id, in order of play), the engine's snapshot of the active
deals (:attr:`engine.MatchResult.snapshot`) and the last active deal (its number and
record: what "the same as the previous deal?" compares with).  Deal entry writes the new state in
the statement that stores the deal (``tournaments.store``); every other change
to a match (corrections, deletes, restores, the admin's match form) empties it
through :func:`changed`, as does a rebuild with ``--recheck`` after an engine
change, and the next entry recomputes it from the rows.  ``Match.version``
goes up with every change; the standings remember the version they were computed
at (``Match.checked_version``), so that a rebuild re-checks only what changed.

What else a stored deal implies beyond its record, its scores and its rated event
(``Deal.event``), is made here too (:func:`deal_rows`, :func:`rating_event`), for
every path that rewrites them from the records.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import F

import engine
from engine.results import DealResult
from tournaments.games import league_game
from tournaments.models import Match, Seat
from tournaments.records import match_envelope


@dataclass(frozen=True)
class Progress:
    number: int
    """The last deal number used in the match (0: none yet)."""
    seats: list[tuple[str, int]]
    """(handle, player id) in order of play."""
    snapshot: dict[str, Any]
    last: tuple[int, dict[str, Any]] | None = None
    """The last active deal's number and stored record, for "same as deal N?" without
    reading it (``None``: no deal, or kept before this was kept)."""

    @property
    def handles(self) -> list[str]:
        return [h for h, _pid in self.seats]

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "seats": [list(s) for s in self.seats],
            "snapshot": self.snapshot,
            "last": list(self.last) if self.last is not None else None,
        }

    @classmethod
    def from_json(cls, value: Mapping[str, Any]) -> Progress:
        last = value.get("last")
        return cls(
            value["number"],
            [(h, pid) for h, pid in value["seats"]],
            value["snapshot"],
            (last[0], last[1]) if last else None,
        )


def compute(match: Match) -> Progress:
    """The progress of ``match`` from its rows (two queries); stores it when the match has
    not changed since ``match`` was read."""
    seats = list(
        Seat.objects.filter(match=match)
        .order_by("position")
        .values_list("player__handle", "player_id")
    )
    stored = list(match.deals.order_by("number").values_list("number", "deleted_at", "record"))
    active = [(n, r) for n, deleted_at, r in stored if deleted_at is None]
    record = {**match_envelope(match, [h for h, _pid in seats]), "deals": [r for _n, r in active]}
    snapshot = engine.check_match(record).snapshot
    progress = Progress(
        stored[-1][0] if stored else 0, seats, snapshot, active[-1] if active else None
    )
    Match.objects.filter(pk=match.pk, version=match.version).update(state=progress.to_json())
    return progress


def of(match: Match) -> Progress:
    """The match's kept progress, or computed when it has none."""
    if match.state:
        return Progress.from_json(match.state)
    return compute(match)


def toward_end(match: Match) -> tuple[int, int | None]:
    """How far ``match`` has gone toward its end in its game's own goal (deals of 12,
    points to 500, eliminations; :meth:`engine.game.Game.progress`), from its kept
    progress (every deal entered, confirmed or waiting)."""
    kept = of(match)
    return engine.GAMES[match.game].progress(kept.snapshot, kept.handles, match.target)


def said(match: Match) -> str:
    """:func:`toward_end` in the reader's language, as the game's web side says it
    ("3 of 12 deals", "points to 500: leader 120", "1 of 3 players out")."""
    return league_game(match.game).progress_text(*toward_end(match))


def changed(match_id: int, *, deals_changed: bool = True) -> None:
    """Record a change to a match's deals other than an entry: its version goes up, its
    kept progress is emptied (unless only what counts changed: a confirmation).  The
    action that changed it calls this through ``actions.after.match_edited``, which also
    hands the refresh on."""
    fields: dict[str, Any] = {"version": F("version") + 1}
    if deals_changed:
        fields["state"] = None
    Match.objects.filter(pk=match_id).update(**fields)


def deal_rows(
    game: str,
    seats: Sequence[tuple[str, int]],
    deals: Sequence[tuple[int, Mapping[str, Any]]],
    results: Sequence[DealResult],
) -> tuple[list[tuple[int, int, int, bool]], list[tuple[int, dict[str, Any] | None]]]:
    """The ``DealScore`` rows (deal id, player id, score, won) and the rated events (deal
    id, event: rows for ``dbtools.bulk.update_rows``) of ``deals`` (id, record), from the
    engine's ``results`` of them in the same order; invalid results give nothing."""
    ids = dict(seats)
    scores: list[tuple[int, int, int, bool]] = []
    events: list[tuple[int, dict[str, Any] | None]] = []
    for (deal_id, record), outcome in zip(deals, results, strict=True):
        if not outcome.valid:
            continue
        winners = set(outcome.winners)
        scores += [(deal_id, ids[h], s, h in winners) for h, s in outcome.scores.items()]
        event = rating_event(game, record, outcome.details, seats, outcome.scores)
        events.append((deal_id, event))
    return scores, events


def rating_event(
    game: str,
    record: Mapping[str, Any],
    details: Mapping[str, Any],
    seats: Sequence[tuple[str, int]],
    scores: Mapping[str, int],
) -> dict[str, Any] | None:
    """The deal as the ratings see it (``Deal.event``), in player ids: the game's
    ``rating_teams`` of the players with a score, in order of play; ``None`` in a game
    without ratings.  ``details`` are the engine's result details of the deal."""
    if not engine.GAMES[game].rated:
        return None
    ids = dict(seats)
    in_deal = [h for h, _pid in seats if h in scores]
    rated = league_game(game).rating_teams(record, details, in_deal, scores)
    return {
        "teams": [[ids[h] for h in team] for team in rated.teams],
        "ranks": list(rated.ranks),
        "weights": rated.weights,
        "stake": rated.stake,
    }
