"""The workflows that change matches and deals: every view, the API, the admin,
management commands and tests call these, never the models directly.

The engine judges every record; these functions only translate between rows and
records and keep the database consistent (one transaction per change, the match
row locked while a deal is added).  Each change has a dry run that checks
without writing (:func:`check_next_deal`; a new match's is
``actions.matches.check_new_match``): the admin's forms and imports call them to show
every problem before anything is stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

import engine
from actions import confirmation
from actions.after import match_changed
from engine.results import DealResult
from tournaments import errors, progress, records, store
from tournaments.errors import Rejection, error, problems
from tournaments.models import Deal, Match, Player
from tournaments.records import (
    add_deal,
    checked_alone,
    complete_record,
    match_envelope,
    match_record,
)


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
    passed = records.passed_on(match, previous)
    full = checked_alone(complete_record(match, record, previous), passed)
    result = engine.check({**passed, **full})
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
"""The longest client key (``Idempotency-Key``) a deal or a match keeps."""


def check_key(key: str | None) -> None:
    """Refuse a client key (``Idempotency-Key``) that is empty or too long to keep."""
    if key is not None and not 0 < len(key) <= KEY_LENGTH:
        raise errors.refusal(
            "out_of_range",
            "key",
            gettext_noop("a key is 1 to %(key_length)s characters"),
            key_length=KEY_LENGTH,
        )


class Outcome(StrEnum):
    """What entering a deal came to."""

    STORED = "stored"
    REPLAYED = "replayed"  # the key was stored with this record: the deal stored then
    SAME_AS = "same_as"  # the previous deal says exactly this: asked, nothing stored
    NUMBER_TAKEN = "number_taken"  # another entry took the deal's number first
    REFUSED = "refused"  # the engine or the match's state refuses it: nothing stored


@dataclass(frozen=True)
class Entry:
    """An entry's outcome, which the page and the API each turn into their answer."""

    outcome: Outcome
    deal: Deal | None = None
    """Stored or replayed: that deal (with its scores).  Same as: the previous deal.
    Number taken: the deal stored under the number meanwhile, when it is known."""
    rejection: Rejection | None = None
    """Refused, number taken or same as: the problems, as the API reports them."""
    mine: bool = False
    """Number taken: the deal stored meanwhile is this very record."""

    def stored(self) -> Deal:
        """The deal stored (or replayed); the refusal raised otherwise.  For a caller that
        is not a person at a table: an import, a restore, the admin, a test."""
        if self.outcome in (Outcome.STORED, Outcome.REPLAYED):
            assert self.deal is not None
            return self.deal
        assert self.rejection is not None
        raise self.rejection


SAME_AS = gettext_noop(
    "deal %(number)s had exactly this record: say it is the same to store it as a new deal"
)
"""A record like the last deal's, refused at the field that says it is the same."""


def enter_deal(
    match: Match,
    record: Any,
    *,
    user: User | None = None,
    number: int | None = None,
    key: str | None = None,
    at_table: bool = False,
    holder: str = "",
    ask_if_same: bool = False,
) -> Entry:
    """Check ``record`` with the engine and store it as the match's next deal; what came
    of it (:class:`Entry`).

    - **Stored**: the new deal, with its scores.  The standings are refreshed and the
      table's players told (``actions.after``) once it commits.
    - **Replayed**: ``key`` is the client's own name for this entry (the page's hidden
      key, the API's ``Idempotency-Key``), stored with the deal in the same statement:
      a retry with the key and the same record answers the deal stored the first time;
      the key with another record is refused (``idempotency_key_reused``).
    - **Same as deal N** (only with ``ask_if_same``, a person entering): the record says
      exactly what the match's last deal says and is not a resend; nothing is stored
      until the person sends it again without ``ask_if_same``.
    - **Number taken**: ``number`` (the deal number the person saw) was stored meanwhile
      by another entry; ``mine`` when that deal is this very record.
    - **Refused**: the engine's problems, or the match's state (finished: a conflict).

    The deal is checked against the match's kept progress and stored by one statement
    that succeeds only if the match has not changed meanwhile (``tournaments.store``);
    when it has (two scorers at one match), the entry is checked again with the match
    row locked.  ``at_table``: entered with the table's link
    (``tournaments.table_links``), by ``user`` if someone is signed in on the phone,
    and ``holder`` the phone's link-holder id.
    """
    sent = _Sent(record, user, number, key, store.request_hash(record), at_table, holder)
    try:
        if ask_if_same and (same := _same_as_previous(match, sent)) is not None:
            raise _same_as(same)
        deal = _enter_once(match, sent, ask_if_same)
    except Rejection as refused:
        existing = refused.existing if isinstance(refused.existing, Deal) else None
        if any(e["code"] == "same_as_previous" for e in refused.errors) and existing:
            return Entry(Outcome.SAME_AS, existing, refused)
        taken = existing is not None and any(e["code"] == "deal_exists" for e in refused.errors)
        if taken and existing is not None:
            return Entry(
                Outcome.NUMBER_TAKEN, existing, refused, existing.request_hash == sent.hash
            )
        return Entry(Outcome.REFUSED, None, refused)
    if deal.replayed:
        return Entry(Outcome.REPLAYED, deal)
    match_changed(match.pk, announcing=("deal.entered", {"deal": deal.pk}))
    return Entry(Outcome.STORED, deal)


def _same_as(same: Deal) -> Rejection:
    problem = errors.error("same_as_previous", "confirm_same", SAME_AS, number=same.number)
    return Rejection((problem,), conflict=True, existing=same)


def _same_as_previous(match: Match, sent: _Sent) -> Deal | None:
    """The match's last active deal when ``record`` says exactly what it says, is no
    resend (its key known, or sent with a number not the next: those answer as such)
    and the engine would store it (a refused record shows its problems instead).
    Compared with the kept progress (``tournaments.progress``): no statement unless the
    record is the same."""
    record = sent.record
    if match.status != Match.Status.OPEN:  # finished: refused as such
        return None
    if not isinstance(record, dict) or not record or "game" in record:
        return None
    kept = progress.of(match)
    if kept.last is None or any(kept.last[1].get(k) != v for k, v in record.items()):
        return None
    if (sent.number is not None and sent.number != kept.number + 1) or is_resent(match, sent.key):
        return None
    try:
        check_next_deal(match, record)
    except Rejection:
        return None
    return match.deals.filter(number=kept.last[0]).first()


@dataclass(frozen=True)
class _Sent:
    """An entry as it was sent: the record and who sent it how."""

    record: Any
    user: User | None
    number: int | None
    key: str | None
    hash: str
    """The record's request hash (``tournaments.store.request_hash``)."""
    at_table: bool
    holder: str


def _enter_once(match: Match, sent: _Sent, ask_if_same: bool = False) -> Deal:
    """The deal stored (or replayed); the refusal raised.  When another entry changed the
    match meanwhile, it is asked again under the match's lock whether this record is the
    one just stored (a double tap, or the same deal sent by two phones at once): nothing
    stored then, as for one sent after the other."""
    check_key(sent.key)
    try:
        deal = _enter(match, sent)
    except Rejection:
        # Refused against the match as read: final only if the match has not moved on.
        if Match.objects.filter(pk=match.pk, version=match.version).exists():
            raise
        deal = None
    if deal is None:  # the match changed since it was read: again, one entry at a time
        with transaction.atomic():
            locked = Match.objects.select_for_update(of=("self",)).get(pk=match.pk)
            if ask_if_same and (same := _same_as_previous(locked, sent)) is not None:
                raise _same_as(same)
            deal = _enter(locked, sent)
        assert deal is not None, "a locked match cannot change"
        for field in ("version", "state", "status", "finished_at"):
            setattr(match, field, getattr(locked, field))
    return deal


def _enter(match: Match, sent: _Sent) -> Deal | None:
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
        if sent.number is not None and sent.number != next_number:
            raise _wrong_number(match, sent.number, next_number)
        full, step = _checked(match, kept, sent.record)
    except Rejection:
        if (before := _keyed(match, sent)) is not None:
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
        state=progress.Progress(
            next_number, kept.seats, step.snapshot, (next_number, full)
        ).to_json(),
        finished_at=timezone.now() if step.finished else None,
        user_id=sent.user.pk if sent.user is not None else None,
        at=timezone.now(),
        at_table=sent.at_table,
        holder=sent.holder if sent.at_table else "",
        key=sent.key or "",
        request_hash=sent.hash,
        event=progress.rating_event(match.game, full, step.result.details, kept.seats, scores),
    )
    try:
        deal = store.insert(new)
    except IntegrityError:
        if (before := _keyed(match, sent)) is not None:
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
        deal.entered_by = sent.user
    return deal


def _keyed(match: Match, sent: _Sent) -> Deal | None:
    """The deal stored before with the entry's key (marked ``replayed``); a refusal when
    that was another record; ``None`` when the key is new or none was sent."""
    if sent.key is None:
        return None
    before = Deal.objects.filter(match=match, idempotency_key=sent.key).first()
    if before is None:
        return None
    if before.request_hash != sent.hash:
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
    ``actions.confirmation``."""
    return confirmation.confirm(deal, confirmation.Confirmer(user=user, holder=holder))
