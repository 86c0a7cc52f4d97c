"""Correcting, deleting and restoring deals, keeping every previous version.

Every change is one transaction under the season's and the match's row locks
(:func:`_locked`): the engine re-checks the match's deals in order with the change
applied (a correction can change who won a deal, or when a Packing match ended), the
previous record is kept as a ``DealVersion``, and the match's standings and the season's
leaderboards are made again in the same transaction by ``scoring``'s own steps; the
club's ratings are replayed once the change commits.  The answer (the change's
*effect*, kept with the version) says what the change did to the season's leaderboard:
each seated player's season line, read from the stored leaderboard before and after,
with the rank the season page shows them: in their division where the season has
divisions (``scoring.leaderboard.shown_lines``), else in the season.

Finished matches are locked: an administrator reopens one first.

In a season that requires confirmation, a correction or a restore makes a new version
that nobody has confirmed: the deal's confirmation moves into the history (the
``DealVersion`` keeps who had confirmed the record it replaced), the deal leaves the
standings, and it counts again once a second person confirms the new version (never
its enterer nor whoever made the new version: ``actions.confirmation``).  A
deletion keeps the confirmation with the deal: a deleted deal counts for nobody, and
restoring it asks for a confirmation again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop

import engine
from actions import after
from dbtools.bulk import insert_rows, update_rows
from scoring.leaderboard import shown_lines
from scoring.models import SeasonStanding
from scoring.rebuild import standings_up_to_date
from scoring.season_totals import rebuild_season_standings, rebuild_seasons
from scoring.standings import rebuild_match_standings
from tournaments import errors, progress
from tournaments.errors import Rejection, error, problems
from tournaments.models import Deal, DealScore, DealVersion, Match, MatchEvent, Season
from tournaments.records import checked_alone, complete_record, match_record, passed_on


@dataclass(frozen=True)
class Effect:
    """One player's season line (for the match's game) before and after a change."""

    player: str
    total_before: int
    total_after: int
    rank_before: int | None
    rank_after: int | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "total_before": self.total_before,
            "total_after": self.total_after,
            "rank_before": self.rank_before,
            "rank_after": self.rank_after,
        }


Lines = dict[str, SeasonStanding]
"""The seated players' season lines in the match's game, by handle, ranked as the season
page shows them (``scoring.leaderboard.shown_lines``)."""


def _locked(match_id: int) -> Match:
    """The match of a change, locked with what the change writes, in the order every
    writer of a season takes its rows: the season's row first (as closing or saving a
    season does, ``actions.seasons``; ``scoring.season_totals`` totals it under that lock),
    then the match together with the season's matches that wait for a check, in the order
    of their ids (as ``scoring.standings`` locks matches), which :func:`_current` checks.
    Two changes in one season wait for each other; none waits for a row in a circle."""
    season_id = Match.objects.values_list("table__club_night__season_id", flat=True).get(
        pk=match_id
    )
    Season.objects.select_for_update(no_key=True).filter(pk=season_id).exists()
    of_season = Match.objects.filter(table__club_night__season_id=season_id)
    waiting = list(of_season.exclude(checked_version=F("version")).values_list("pk", flat=True))
    locked = Match.objects.select_for_update(of=("self",)).filter(pk__in=[match_id, *waiting])
    list(locked.order_by("pk").values_list("pk", flat=True))
    return Match.objects.select_related("table__club_night__season").get(pk=match_id)


def _current(match: Match) -> Lines:
    """The seated players' stored season lines, the season first brought up to date: a
    match whose refresh has not run yet checked, and the season totalled when a refresh
    checked a match and has not totalled it yet, or its ranking changed meanwhile (a
    season whose lines were totalled as they are is skipped: ``scoring.fingerprints``)."""
    season_id = match.table.club_night.season_id
    if not standings_up_to_date(season_id):
        rebuild_seasons([season_id], fingerprinted=True)
    return _lines(match)


def _lines(match: Match) -> Lines:
    """The seated players' stored season lines, as they are."""
    seated = {p.pk: p.handle for p in match.seated_players()}
    shown = shown_lines(match.table.club_night.season, match.game, list(seated))
    return {seated[player]: line for player, line in shown.items()}


def _effect(match: Match, before: Lines) -> list[Effect]:
    """The match checked and its season totalled again now, in the change's transaction,
    by the refresh's own steps (the refresh once it commits finds them done); each seated
    player's line before and after, as the season page shows it."""
    rebuild_match_standings(match.pk)
    rebuild_season_standings(match.table.club_night.season_id)
    now = _lines(match)

    def total(lines: Lines, player: str) -> int:
        return lines[player].total if player in lines else 0

    def rank(lines: Lines, player: str) -> int | None:
        return lines[player].rank if player in lines else None

    return [
        Effect(p, total(before, p), total(now, p), rank(before, p), rank(now, p))
        for p in (seat.handle for seat in match.seated_players())
    ]


def _rescore(match: Match, active: list[Deal]) -> engine.MatchResult:
    """Check the match's active deals in order; refuse if any is now invalid; rewrite scores."""
    result = engine.check_match(match_record(match, [d.record for d in active]))
    if not result.valid:
        raise Rejection(problems(result.errors))
    seats = [(p.handle, p.pk) for p in match.seated_players()]
    scores, events = progress.deal_rows(
        match.game, seats, [(d.pk, d.record) for d in active], result.deals
    )
    # By the deals' ids, not a join: one plain DELETE whatever the planner's statistics
    DealScore.objects.filter(deal_id__in=list(match.deals.values_list("pk", flat=True))).delete()
    insert_rows(DealScore, ["deal", "player", "score", "won"], scores)
    update_rows(Deal, ["event"], events)
    return result


def _change(
    deal: Deal,
    user: User | None,
    reason: str,
    action: str,
    apply,
    at_table: bool = False,
    holder: str = "",
    refuse: Callable[[Deal], None] | None = None,
) -> tuple[Deal, list[Effect]]:
    """Apply a change to the deal under its season's and match's locks, keeping the record
    it had.  ``refuse(deal)`` raises when the deal as it stands now, locked, cannot take
    the change (deleted already: four deletions sent at once store one).  A correction
    that leaves the record as it is (a retried PUT) stores nothing, no second version."""
    reason = reason_given(reason, gettext_noop("say why the deal changes"))
    with transaction.atomic():
        match = _locked(deal.match_id)
        if match.status == Match.Status.FINISHED:
            raise Rejection(
                (
                    error(
                        "match_locked",
                        "",
                        gettext_noop("this match is finished: an administrator reopens it first"),
                    ),
                ),
                conflict=True,
            )
        locked = Deal.objects.select_for_update().get(pk=deal.pk)
        if refuse is not None:
            refuse(locked)
        before = _current(match)
        record_before = locked.record
        apply(match, locked)
        if action == DealVersion.Action.CORRECTED and locked.record == record_before:
            return locked, _effect(match, before)
        version = DealVersion.objects.create(
            deal=locked,
            action=action,
            record_before=record_before,
            reason=reason.strip(),
            changed_by=user,
            at_table=at_table,
            confirmed_by_id=locked.confirmed_by_id,
            confirmed_at=locked.confirmed_at,
        )
        if action != DealVersion.Action.DELETED:  # a new version: nobody has confirmed it
            locked.revised_by = user
            locked.revised_by_holder = holder if at_table else ""
            if match.table.club_night.season.require_confirmation:
                locked.confirmed_by = None
                locked.confirmed_by_player = None
                locked.confirmed_at = None
        locked.save()
        active = list(match.deals.filter(deleted_at__isnull=True).order_by("number"))
        result = _rescore(match, active)
        finished = result.finished
        match.status = Match.Status.FINISHED if finished else Match.Status.OPEN
        match.finished_at = timezone.now() if finished else None
        match.save(update_fields=["status", "finished_at"])
        progress.changed(match.pk)
        effect = _effect(match, before)
        version.effect = [e.to_dict() for e in effect]
        version.save(update_fields=["effect"])
        # the club's ratings, and telling who listens
        after.match_changed(match.pk, announcing=("correction.applied", {"change": version.pk}))
    return locked, effect


def _refused_when(deleted: bool, code: str, words: str) -> Callable[[Deal], None]:
    """A change's refusal of a deal that is (``deleted``) or is not deleted: asked of the
    deal as read, then of the row locked for the change (:func:`_change`)."""

    def refuse(deal: Deal) -> None:
        if (deal.deleted_at is not None) == deleted:
            raise Rejection((error(code, "", words),), conflict=True)

    return refuse


def correct_deal(
    deal: Deal,
    record: Any,
    user: User | None,
    reason: str,
    *,
    at_table: bool = False,
    holder: str = "",
) -> tuple[Deal, list[Effect]]:
    """Replace a deal's record; the old one is kept.  ``at_table``: changed with the
    table's link, by ``user`` if someone is signed in on the phone (else ``None``), and
    ``holder`` the phone's link-holder id."""
    refuse = _refused_when(True, "deleted", gettext_noop("restore the deal before correcting it"))
    refuse(deal)

    def apply(match: Match, locked: Deal) -> None:
        before = match.deals.filter(deleted_at__isnull=True, number__lt=locked.number).order_by(
            "number"
        )
        previous = [d.record for d in before]
        full = complete_record(match, record, previous)
        locked.record = checked_alone(full, passed_on(match, previous))

    corrected = DealVersion.Action.CORRECTED
    return _change(deal, user, reason, corrected, apply, at_table, holder, refuse)


def delete_deal(
    deal: Deal, user: User | None, reason: str, *, at_table: bool = False
) -> tuple[Deal, list[Effect]]:
    """Take a deal out of the match; it keeps its number and its history."""
    refuse = _refused_when(True, "deleted", gettext_noop("the deal is deleted already"))
    refuse(deal)

    def apply(match: Match, locked: Deal) -> None:
        locked.deleted_at = timezone.now()

    deleted = DealVersion.Action.DELETED
    return _change(deal, user, reason, deleted, apply, at_table, refuse=refuse)


def restore_deal(deal: Deal, user: User, reason: str) -> tuple[Deal, list[Effect]]:
    """Bring a deleted deal back (administrators only: checked by the caller)."""
    refuse = _refused_when(False, "not_deleted", gettext_noop("the deal is not deleted"))
    refuse(deal)

    def apply(match: Match, locked: Deal) -> None:
        locked.deleted_at = None

    return _change(deal, user, reason, DealVersion.Action.RESTORED, apply, refuse=refuse)


def reason_given(reason: str | None, missing: str = gettext_noop("say why")) -> str:
    """The reason given for a change, stripped; refused when empty (``missing`` says so)
    or longer than the history keeps (the same for deals' and matches' histories)."""
    return errors.text(
        reason,
        "reason",
        most=MatchEvent._meta.get_field("reason").max_length or 500,
        missing_words=missing,
        too_long_words=gettext_noop("a reason is at most %(n)s characters"),
    )


def end_match(match: Match, user: User | None, reason: str) -> Match:
    """End an open match by hand ("End the match": an open-ended Napoleon or Rettler
    match, a night that stops early): it is finished as it stands, its winner by the
    game's own ranking, and it counts as finished in the standings (matches won).  A
    match with no deal ends too, and nobody wins it: a table drawn and never played (the
    night went over to rounds), a round ended early."""
    text = reason_given(reason)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status == Match.Status.FINISHED:
            raise Rejection(
                (error("match_finished", "", gettext_noop("this match is finished already")),),
                conflict=True,
            )
        Match.objects.filter(pk=match.pk).update(
            status=Match.Status.FINISHED, finished_at=timezone.now(), ended_by_hand=True
        )
        MatchEvent.objects.create(
            match=locked, action=MatchEvent.Action.ENDED, reason=text, changed_by=user
        )
        after.match_edited(
            match.pk, deals_changed=False, announcing=("match.finished", {"match": match.pk})
        )
    match.refresh_from_db()
    return match


def reopen_match(match: Match, user: User | None, reason: str) -> Match:
    """An administrator reopens a finished match (its deals can be corrected, or more
    entered when it was ended by hand); the reason is in the match's history."""
    text = reason_given(reason)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status == Match.Status.OPEN:
            raise Rejection(
                (error("not_finished", "", gettext_noop("this match is open already")),),
                conflict=True,
            )
        Match.objects.filter(pk=match.pk).update(
            status=Match.Status.OPEN, finished_at=None, ended_by_hand=False
        )
        MatchEvent.objects.create(
            match=locked, action=MatchEvent.Action.REOPENED, reason=text, changed_by=user
        )
        after.match_edited(match.pk, deals_changed=False)
    match.refresh_from_db()
    return match
