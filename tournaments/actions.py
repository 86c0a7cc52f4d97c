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
from django.utils import timezone
from django.utils.translation import gettext_noop

import engine
from engine.results import DealResult
from tournaments import confirmation, progress, records, store
from tournaments.events import announce, match_changed
from tournaments.models import Deal, Match, Player, Seat, Table
from tournaments.records import (
    Rejection,
    add_deal,
    checked_alone,
    complete_record,
    error,
    match_envelope,
    match_record,
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
    rules_of_game = engine.GAMES.get(game)
    if (
        target is None
        and rules_of_game is not None
        and rules_of_game.accepts_target
        and rules_of_game.default_target is None
    ):  # an open-ended game: the night's number of deals, if it has one
        target = table.club_night.deals_per_match
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


def next_deal(match: Match, before: int | None = None) -> dict[str, Any]:
    """What the match's next deal inherits from the deals before it, in the games whose
    deals follow the match (who plays it, who deals, Twenty-Two's hand size); ``{}`` in
    the others.  From the match's kept progress, without replaying a deal; for deal number
    ``before`` (a correction's form) from the active deals before it."""
    if not engine.GAMES[match.game].deals_follow_the_match:
        return {}
    if before is None:
        kept = progress.of(match)
        return dict(engine.next_deal(match_envelope(match, kept.handles), kept.snapshot))
    active = match.deals.filter(deleted_at__isnull=True, number__lt=before).order_by("number")
    return records.next_deal(match, [d.record for d in active])


def is_resent(match: Match, key: str | None) -> bool:
    """An entry whose key is stored with a deal of the match already: a resend, which
    :func:`enter_deal` answers with the stored deal."""
    return key is not None and Deal.objects.filter(match=match, idempotency_key=key).exists()


def check_next_deal(
    match: Match, record: Any, previous: Sequence[Mapping[str, Any]] | None = None
) -> tuple[dict[str, Any], DealResult, bool]:
    """The dry run of :func:`enter_deal`: the completed record, the engine's result for
    ``record`` as the match's next deal and whether it ends the match; or the
    :class:`Rejection` it would raise.
    ``previous`` are the match's active deal records in order; without them the match's
    kept progress is read (``tournaments.progress``)."""
    if previous is None:
        full, step = _checked(match, progress.of(match), record)
        return full, step.result, step.finished
    full = checked_alone(complete_record(match, record, previous))
    result = engine.check(full)
    state = engine.check_match(match_record(match, [*previous, full]))
    if not state.valid:
        raise Rejection(problems(state.errors), conflict=True)
    return full, result, state.finished


def _checked(
    match: Match, kept: progress.Progress, record: Any
) -> tuple[dict[str, Any], engine.NextDeal]:
    """``record`` completed and checked as the next deal after ``kept``."""
    full = complete_record(match, record, handles=kept.handles, snapshot=kept.snapshot)
    full, step = add_deal(match_envelope(match, kept.handles), kept.snapshot, full)
    if not step.result.valid:
        raise Rejection(problems(step.result.errors))
    if not step.valid:  # against the match so far (dealer, hand size, cards out…)
        raise Rejection(problems(step.errors), conflict=True)
    return full, step


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
    at_table: bool = False,
    holder: str = "",
) -> Deal:
    """Check ``record`` with the engine and store it as the match's next deal.

    Raises :class:`Rejection` with the engine's errors when the record is invalid,
    and a conflict when the match is finished or deal ``number`` exists already.
    ``key`` is the client's own name for this entry (the page's hidden key, the
    API's ``Idempotency-Key``): stored with the deal in the same statement, so
    that a retry with the key and the same record answers the stored deal
    (``replayed`` set) instead of storing another, and the key with another record
    is refused (``idempotency_key_reused``, nothing stored).

    The deal is checked against the match's kept progress and stored by one statement
    that succeeds only if the match has not changed meanwhile (``tournaments.store``);
    when it has (two scorers at one match), the entry is checked again with the match
    row locked.  The returned deal carries its scores.  The standings are refreshed
    (``events.match_changed``) once the deal is committed.  ``at_table``: entered with
    the table's link (``tournaments.table_links``), by ``user`` if someone is signed in
    on the phone, and ``holder`` the phone's link-holder id.
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
    try:
        deal = _enter(match, record, user, number, key, sent, at_table, holder)
    except Rejection:
        # Refused against the match as read: final only if the match has not moved on.
        if Match.objects.filter(pk=match.pk, version=match.version).exists():
            raise
        deal = None
    if deal is None:  # the match changed since it was read: again, one entry at a time
        with transaction.atomic():
            locked = Match.objects.select_for_update(of=("self",)).get(pk=match.pk)
            deal = _enter(locked, record, user, number, key, sent, at_table, holder)
        assert deal is not None, "a locked match cannot change"
        for field in ("version", "state", "status", "finished_at"):
            setattr(match, field, getattr(locked, field))
    if not deal.replayed:
        match_changed(match.pk)
        announce("deal.entered", deal=deal.pk)
    return deal


def _enter(
    match: Match,
    record: Any,
    user: User | None,
    number: int | None,
    key: str | None,
    sent: str,
    at_table: bool = False,
    holder: str = "",
) -> Deal | None:
    """One attempt of :func:`enter_deal` against ``match`` as read; ``None``: it changed."""
    try:
        kept = progress.of(match)
        if match.status == Match.Status.FINISHED:
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
        next_number = kept.number + 1
        if number is not None and number != next_number:
            raise _wrong_number(match, number, next_number)
        full, step = _checked(match, kept, record)
    except Rejection:
        if key is not None and (before := _keyed(match, key, sent)) is not None:
            return before
        raise
    scores = step.result.scores
    winners = set(step.result.winners)
    ids = dict(kept.seats)
    new = store.NewDeal(
        match=match,
        version=match.version,
        number=next_number,
        record=full,
        scores=[
            (Player(pk=ids[h], handle=h), scores[h], h in winners)
            for h in kept.handles
            if h in scores
        ],
        state=progress.Progress(next_number, kept.seats, step.snapshot).to_json(),
        finished_at=timezone.now() if step.finished else None,
        user_id=user.pk if user is not None else None,
        at=timezone.now(),
        at_table=at_table,
        holder=holder if at_table else "",
        key=key or "",
        request_hash=sent,
        event=progress.rating_event(match.game, full, step.result.details, kept.seats, scores),
    )
    try:
        deal = store.insert(new)
    except IntegrityError:
        if key is not None and (before := _keyed(match, key, sent)) is not None:
            return before
        existing = Deal.objects.filter(match=match, number=next_number).first()
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
    if deal is not None:
        deal.entered_by = user
    return deal


def _keyed(match: Match, key: str, sent: str) -> Deal | None:
    """The deal stored before with ``key`` (marked ``replayed``); a refusal when that was
    another record; ``None`` when the key is new."""
    before = Deal.objects.filter(match=match, idempotency_key=key).first()
    if before is None:
        return None
    if before.request_hash != sent:
        raise Rejection(
            (
                error(
                    "idempotency_key_reused",
                    "key",
                    gettext_noop(
                        "this key was used for another deal record: make a new key for a new entry"
                    ),
                ),
            ),
            existing=before,
        )
    before.replayed = True
    return before


def _wrong_number(match: Match, number: int, next_number: int) -> Rejection:
    existing = Deal.objects.filter(match=match, number=number).first()
    if existing is not None:
        return Rejection(
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
    return Rejection(
        (
            error(
                "wrong_number",
                "number",
                gettext_noop("the next deal of this match is %(next_number)s"),
                next_number=next_number,
            ),
        )
    )


def confirm_deal(deal: Deal, user: User, *, holder: str = "") -> Deal:
    """A second person at the table confirms a deal with their account; it then counts in
    the standings.  ``holder``: the request's link-holder id.  Who may confirm what:
    ``tournaments.confirmation``."""
    return confirmation.confirm(deal, confirmation.Confirmer(user=user, holder=holder))
