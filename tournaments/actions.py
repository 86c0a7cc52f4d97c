"""The workflows that change matches and deals: every view, the API, the admin,
management commands and tests call these, never the models directly.

The engine judges every record; these functions only translate between rows and
records and keep the database consistent (one transaction per change, the match
row locked while a deal is added).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.utils import timezone

import engine
from tournaments.models import Deal, DealScore, Match, Player, Seat, Table


class Rejection(Exception):
    """A change the rules or the match's state refuse; nothing was written.

    ``conflict`` is true when the refusal is about the match's state (finished,
    the deal number taken); ``existing`` is then the deal already stored, if any.
    """

    def __init__(
        self,
        errors: tuple[dict[str, str], ...],
        *,
        conflict: bool = False,
        existing: Deal | None = None,
    ) -> None:
        super().__init__(errors)
        self.errors = errors
        self.conflict = conflict
        self.existing = existing

    def __str__(self) -> str:
        return "; ".join(f"{e['path'] or 'record'}: {e['message']}" for e in self.errors)


def _error(code: str, path: str, message: str) -> dict[str, str]:
    return {"code": code, "path": path, "message": message}


# -- matches --------------------------------------------------------------------


def create_match(
    table: Table,
    game: str,
    players: Sequence[Player],
    *,
    rules: Mapping[str, Any] | None = None,
    target: int | None = None,
) -> Match:
    """Seat ``players`` (in order of play) at a new match of ``game``."""
    errors: list[dict[str, str]] = []
    season = table.club_night.season
    rules = dict(rules or {})
    if game not in engine.GAMES:
        raise Rejection((_error("unknown_game", "game", f"unknown game {game!r}"),))
    if game not in season.games:
        errors.append(_error("game_not_in_season", "game", f"{season} does not count {game}"))
    for i, player in enumerate(players):
        if player.club_id != season.club_id:
            errors.append(
                _error(
                    "not_a_member", f"players[{i}]", f"{player} is not a player of {season.club}"
                )
            )
    record: dict[str, Any] = {
        "game": game,
        "players": [p.handle for p in players],
        "rules": rules,
        "deals": [],
    }
    if target is not None:
        record["target"] = target
    errors.extend(p.to_dict() for p in engine.check_match(record).errors)
    if errors:
        raise Rejection(tuple(errors))
    with transaction.atomic():
        match = Match.objects.create(
            table=table,
            game=game,
            rules=rules,
            target=target if target is not None else engine.GAMES[game].default_target,
        )
        Seat.objects.bulk_create(
            Seat(match=match, player=player, position=i) for i, player in enumerate(players)
        )
    return match


def match_record(match: Match, deals: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """The match record (docs/deal-records.md, "Matches") of a stored match."""
    record: dict[str, Any] = {
        "game": match.game,
        "players": [p.handle for p in match.seated_players()],
        "rules": dict(match.rules),
        "deals": list(deals),
    }
    if match.target is not None:
        record["target"] = match.target
    return record


# -- deals ----------------------------------------------------------------------


NEXT_DEAL_GAMES = frozenset({"twentytwo", "1234", "comrade"})
"""Games whose next deal's players, dealer or hand size follow from the deals before it."""


def next_deal(match: Match, previous: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """What the engine says the deal after ``previous`` inherits (``players``, ``dealer``, …)."""
    return dict(engine.check_match(match_record(match, previous)).next_deal)


def complete_record(
    match: Match, record: Any, previous: Sequence[Mapping[str, Any]] | None = None
) -> dict[str, Any]:
    """The deal record with the match's envelope filled in, or a :class:`Rejection`.

    A record may leave out ``game``, ``players``, ``rules`` (and Packing's
    ``teams``); when it gives them they must be the match's.  In the games of
    ``NEXT_DEAL_GAMES`` the deals before it (``previous``, the active deals in
    order) say who plays it and who deals, and Twenty-Two how many cards.
    """
    if not isinstance(record, dict):
        raise Rejection((_error("wrong_type", "", "a deal record is a JSON object"),))
    base = match_record(match)
    inherited: dict[str, Any] = {}
    if match.game in NEXT_DEAL_GAMES:
        inherited = next_deal(match, previous or [])
        base["players"] = inherited.pop("players", base["players"])
    errors = []
    for key in ("game", "players"):
        if key in record and record[key] != base[key]:
            errors.append(
                _error(
                    f"{key}_mismatch",
                    key,
                    f"this match's {key} is {base[key]!r}, the record says {record[key]!r}",
                )
            )
    if errors:
        raise Rejection(tuple(errors))
    full = {"game": base["game"], "players": base["players"], "rules": base["rules"], **inherited}
    if match.game == "packing" and len(base["players"]) in (4, 6):
        full["teams"] = match.partnerships()
    full.update(record)
    return full


def enter_deal(
    match: Match,
    record: Any,
    *,
    user: AbstractBaseUser | None = None,
    number: int | None = None,
) -> Deal:
    """Check ``record`` with the engine and store it as the match's next deal.

    Raises :class:`Rejection` with the engine's errors when the record is invalid,
    and a conflict when the match is finished or deal ``number`` exists already.
    The standings are refreshed by a Celery task once the transaction commits.
    """
    from scoring.tasks import refresh_standings

    with transaction.atomic():
        # Lock the match: deals of one match are numbered and judged one at a time.
        locked = (
            Match.objects.select_for_update(of=("self",))
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
            .get(pk=match.pk)
        )
        if locked.status == Match.Status.FINISHED:
            raise Rejection(
                (_error("match_finished", "", "this match is finished; no deal can be added"),),
                conflict=True,
            )
        stored = list(locked.deals.order_by("number").values_list("number", "deleted_at", "record"))
        next_number = len(stored) + 1
        if number is not None and number != next_number:
            existing = locked.deals.filter(number=number).first()
            if existing is not None:
                raise Rejection(
                    (
                        _error(
                            "deal_exists", "number", f"deal {number} of this match exists already"
                        ),
                    ),
                    conflict=True,
                    existing=existing,
                )
            raise Rejection(
                (_error("wrong_number", "number", f"the next deal of this match is {next_number}"),)
            )
        active = [record for _number, deleted_at, record in stored if deleted_at is None]
        full = complete_record(locked, record, active)
        result = engine.check(full)
        if not result.valid:
            raise Rejection(tuple(p.to_dict() for p in result.errors))
        state = engine.check_match(match_record(locked, [*active, full]))
        if not state.valid:
            raise Rejection(tuple(p.to_dict() for p in state.errors), conflict=True)

        try:
            with transaction.atomic():
                deal = Deal.objects.create(
                    match=locked, number=next_number, record=full, entered_by=user
                )
        except IntegrityError:
            existing = Deal.objects.filter(match=locked, number=next_number).first()
            raise Rejection(
                (
                    _error(
                        "deal_exists",
                        "number",
                        f"deal {next_number} was entered at the same moment",
                    ),
                ),
                conflict=True,
                existing=existing,
            ) from None
        players = {p.handle: p for p in locked.seated_players()}
        winners = set(result.winners)
        DealScore.objects.bulk_create(
            DealScore(deal=deal, player=players[handle], score=score, won=handle in winners)
            for handle, score in result.scores.items()
        )
        if state.finished:
            locked.status = Match.Status.FINISHED
            locked.finished_at = timezone.now()
            locked.save(update_fields=["status", "finished_at"])
        transaction.on_commit(lambda: refresh_standings.delay(locked.pk))
    return deal


def confirm_deal(deal: Deal, user: AbstractBaseUser) -> Deal:
    """A second person at the table confirms a deal; it then counts in the standings.

    The confirmer is never the person who entered the deal.
    """
    from scoring.tasks import refresh_standings

    with transaction.atomic():
        locked = Deal.objects.select_for_update().select_related("match").get(pk=deal.pk)
        if locked.entered_by_id is not None and locked.entered_by_id == user.pk:
            raise Rejection(
                (
                    _error(
                        "same_person",
                        "",
                        "the deal must be confirmed by someone other than who entered it",
                    ),
                )
            )
        if locked.confirmed_at is not None:
            raise Rejection((_error("already_confirmed", "", f"deal {locked.number} is confirmed already"),),
                            conflict=True, existing=locked)  # fmt: skip
        locked.confirmed_by = user
        locked.confirmed_at = timezone.now()
        locked.save(update_fields=["confirmed_by", "confirmed_at"])
        match_id = locked.match_id
        transaction.on_commit(lambda: refresh_standings.delay(match_id))
    return locked
