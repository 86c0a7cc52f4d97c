"""The workflows that change matches and deals: every view, the API, the admin,
management commands and tests call these, never the models directly.

The engine judges every record; these functions only translate between rows and
records and keep the database consistent (one transaction per change, the match
row locked while a deal is added).  Each change has a dry run that checks
without writing (:func:`check_new_match`, :func:`check_next_deal`): the admin's
forms and imports call them to show every problem before anything is stored.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext_noop

import engine
from engine.results import DealResult
from tournaments.events import match_changed
from tournaments.models import Deal, DealScore, Match, Player, Seat, Table
from tournaments.records import (
    Rejection,
    complete_record,
    error,
    match_record,
    next_deal,
    problems,
)

__all__ = [
    "Rejection",
    "check_new_match",
    "check_next_deal",
    "complete_record",
    "confirm_deal",
    "create_match",
    "enter_deal",
    "match_record",
    "next_deal",
]


# -- matches --------------------------------------------------------------------


def check_new_match(
    table: Table,
    game: str,
    players: Sequence[Player],
    *,
    rules: Mapping[str, Any] | None = None,
    target: int | None = None,
) -> None:
    """The dry run of :func:`create_match`: raise its :class:`Rejection`, write nothing."""
    errors: list[dict[str, str]] = []
    season = table.club_night.season
    if game not in engine.GAMES:
        raise Rejection(
            (error("unknown_game", "game", gettext_noop("unknown game %(game)s"), game=repr(game)),)
        )
    if game not in season.games:
        errors.append(
            error(
                "game_not_in_season",
                "game",
                gettext_noop("%(season)s does not count %(game)s"),
                season=season,
                game=game,
            )
        )
    for i, player in enumerate(players):
        if player.club_id != season.club_id:
            errors.append(
                error(
                    "not_a_member",
                    f"players[{i}]",
                    gettext_noop("%(player)s is not a player of %(club)s"),
                    player=player,
                    club=season.club,
                )
            )
    record: dict[str, Any] = {
        "game": game,
        "players": [p.handle for p in players],
        "rules": dict(rules or {}),
        "deals": [],
    }
    if target is not None:
        record["target"] = target
    errors.extend(problems(engine.check_match(record).errors))
    if errors:
        raise Rejection(tuple(errors))


def create_match(
    table: Table,
    game: str,
    players: Sequence[Player],
    *,
    rules: Mapping[str, Any] | None = None,
    target: int | None = None,
) -> Match:
    """Seat ``players`` (in order of play) at a new match of ``game``."""
    check_new_match(table, game, players, rules=rules, target=target)
    with transaction.atomic():
        match = Match.objects.create(
            table=table,
            game=game,
            rules=dict(rules or {}),
            target=target if target is not None else engine.GAMES[game].default_target,
        )
        Seat.objects.bulk_create(
            Seat(match=match, player=player, position=i) for i, player in enumerate(players)
        )
    return match


# -- deals ----------------------------------------------------------------------


def check_next_deal(
    match: Match, record: Any, previous: Sequence[Mapping[str, Any]] | None = None
) -> tuple[dict[str, Any], DealResult, bool]:
    """The dry run of :func:`enter_deal`: the completed record, the engine's result for
    ``record`` as the match's next deal and whether it ends the match; or the
    :class:`Rejection` it would raise.
    ``previous`` are the match's active deal records in order (read when not given)."""
    if previous is None:
        active = match.deals.filter(deleted_at__isnull=True).order_by("number")
        previous = list(active.values_list("record", flat=True))
    full = complete_record(match, record, previous)
    result = engine.check(full)
    if not result.valid:
        raise Rejection(problems(result.errors))
    state = engine.check_match(match_record(match, [*previous, full]))
    if not state.valid:
        raise Rejection(problems(state.errors), conflict=True)
    return full, result, state.finished


KEY_LENGTH = 255
"""The longest client key (``Idempotency-Key``) a deal keeps."""


def request_hash(record: Any) -> str:
    """What a retry must repeat: the record as sent, in canonical JSON."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def enter_deal(
    match: Match,
    record: Any,
    *,
    user: User | None = None,
    number: int | None = None,
    key: str | None = None,
) -> Deal:
    """Check ``record`` with the engine and store it as the match's next deal.

    Raises :class:`Rejection` with the engine's errors when the record is invalid,
    and a conflict when the match is finished or deal ``number`` exists already.
    ``key`` is the client's own name for this entry (the page's hidden key, the
    API's ``Idempotency-Key``): stored with the deal in the same transaction, so
    that a retry with the key and the same record answers the stored deal
    (``replayed`` set) instead of storing another, and the key with another record
    is refused (``idempotency_key_reused``, nothing stored).
    The standings are refreshed (``events.match_changed``) once the transaction commits.
    """
    if key is not None and not 0 < len(key) <= KEY_LENGTH:
        raise Rejection(
            (
                error(
                    "out_of_range",
                    "key",
                    gettext_noop("a key is 1 to %(key_length)s characters"),
                    key_length=KEY_LENGTH,
                ),
            )
        )
    sent = request_hash(record)
    with transaction.atomic():
        # Lock the match: deals of one match are numbered and judged one at a time.
        locked = (
            Match.objects.select_for_update(of=("self",))
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))
            .get(pk=match.pk)
        )
        if key is not None:
            before = locked.deals.filter(idempotency_key=key).first()
            if before is not None:
                if before.request_hash != sent:
                    raise Rejection(
                        (error("idempotency_key_reused", "key", gettext_noop('this key was used for another deal record: make a new key for a new entry')),),
                        existing=before,
                    )  # fmt: skip
                before.replayed = True
                return before
        if locked.status == Match.Status.FINISHED:
            raise Rejection(
                (
                    error(
                        "match_finished",
                        "",
                        gettext_noop("this match is finished; no deal can be added"),
                    ),
                ),
                conflict=True,
            )
        stored = list(locked.deals.order_by("number").values_list("number", "deleted_at", "record"))
        next_number = len(stored) + 1
        if number is not None and number != next_number:
            existing = locked.deals.filter(number=number).first()
            if existing is not None:
                raise Rejection(
                    (
                        error(
                            "deal_exists",
                            "number",
                            gettext_noop("deal %(number)s of this match exists already"),
                            number=number,
                        ),
                    ),
                    conflict=True,
                    existing=existing,
                )
            raise Rejection(
                (
                    error(
                        "wrong_number",
                        "number",
                        gettext_noop("the next deal of this match is %(next_number)s"),
                        next_number=next_number,
                    ),
                )
            )
        active = [record for _number, deleted_at, record in stored if deleted_at is None]
        full, result, finished = check_next_deal(locked, record, active)
        try:
            with transaction.atomic():
                deal = Deal.objects.create(
                    match=locked,
                    number=next_number,
                    record=full,
                    entered_by=user,
                    idempotency_key=key or "",
                    request_hash=sent,
                )
        except IntegrityError:
            existing = Deal.objects.filter(match=locked, number=next_number).first()
            raise Rejection(
                (
                    error(
                        "deal_exists",
                        "number",
                        gettext_noop("deal %(next_number)s was entered at the same moment"),
                        next_number=next_number,
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
        if finished:
            locked.status = Match.Status.FINISHED
            locked.finished_at = timezone.now()
            locked.save(update_fields=["status", "finished_at"])
        match_changed(locked.pk)
    return deal


def confirm_deal(deal: Deal, user: User) -> Deal:
    """A second person at the table confirms a deal; it then counts in the standings.

    The confirmer is never the person who entered the deal.
    """
    with transaction.atomic():
        locked = Deal.objects.select_for_update().select_related("match").get(pk=deal.pk)
        if locked.entered_by_id is not None and locked.entered_by_id == user.pk:
            raise Rejection(
                (error("same_person", "", gettext_noop('the deal must be confirmed by someone other than who entered it')),)
            )  # fmt: skip
        if locked.confirmed_at is not None:
            raise Rejection((error("already_confirmed", "", gettext_noop('deal %(number)s is confirmed already'), number=locked.number),),
                            conflict=True, existing=locked)  # fmt: skip
        locked.confirmed_by = user
        locked.confirmed_at = timezone.now()
        locked.save(update_fields=["confirmed_by", "confirmed_at"])
        match_changed(locked.match_id)
    return locked
