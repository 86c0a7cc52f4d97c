"""Correcting, deleting and restoring deals, keeping every previous version.

Every change is one transaction under the match's row lock: the engine re-checks
the match's deals in order with the change applied (a correction can change who
won a deal, or when a Packing match ended), the previous record is kept as a
``DealVersion``, and the standings are rebuilt once the change commits.  The
answer says what the change did to the season's leaderboard: each affected
player's points and rank before and after.

Finished matches are locked: an administrator reopens one first.

In a season that requires confirmation, a correction or a restore makes a new version
that nobody has confirmed: the deal's confirmation moves into the history (the
``DealVersion`` keeps who had confirmed the record it replaced), the deal leaves the
standings, and it counts again once a second person confirms the new version (never
its enterer nor whoever made the new version: ``tournaments.confirmation``).  A
deletion keeps the confirmation with the deal: a deleted deal counts for nobody, and
restoring it asks for a confirmation again.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext_noop

import engine
from dbtools.bulk import insert_rows
from tournaments import progress, ranking
from tournaments.events import announce
from tournaments.models import Deal, DealScore, DealVersion, Match, MatchEvent, counting_deals
from tournaments.records import (
    Rejection,
    checked_alone,
    complete_record,
    error,
    match_record,
    problems,
)


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


Lines = dict[str, tuple[ranking.Played, int]]
"""Each player's season in the match's game (what they played, their deals won), by handle."""


def _season_lines(match: Match) -> Lines:
    """Each player's season line for the match's game, counting what counts now: what
    the season's ranking reads (points by match and by club night, deals, matches) and
    their deals won (the game's tie-break)."""
    rows = (
        DealScore.objects.filter(counting_deals("deal__"))
        .filter(
            deal__match__table__club_night__season=match.table.club_night.season_id,
            deal__match__game=match.game,
        )
        .values("player__handle", "deal__match_id", "deal__match__table__club_night_id")
        .annotate(total=Sum("score"), deals=Count("pk"), won=Count("pk", filter=Q(won=True)))
        .order_by(
            "deal__match__table__club_night__date",
            "deal__match__table__club_night_id",
            "deal__match_id",
        )
    )
    matches: dict[str, list[int]] = defaultdict(list)
    nights: dict[str, dict[Any, int]] = defaultdict(lambda: defaultdict(int))
    deals: dict[str, int] = defaultdict(int)
    won: dict[str, int] = defaultdict(int)
    for r in rows:
        handle = r["player__handle"]
        matches[handle].append(r["total"])
        nights[handle][r["deal__match__table__club_night_id"]] += r["total"]  # a night, not a date
        deals[handle] += r["deals"]
        won[handle] += r["won"]
    return {
        h: (
            ranking.Played(sum(points), deals[h], len(points), list(nights[h].values()), points),
            won[h],
        )
        for h, points in matches.items()
    }


def _effect(match: Match, before: Lines, after: Lines) -> list[Effect]:
    """The seated players' lines before and after, ranked as the leaderboard ranks them:
    by the season's ranking, then the game's own order (Comp-13's deals won break a tie)."""
    rule = ranking.Rule.of(match.table.club_night.season)
    rb, ra = rule.ranks(match.game, before), rule.ranks(match.game, after)

    def total(lines: Lines, player: str) -> int:
        return lines[player][0].total if player in lines else 0

    return [
        Effect(p, total(before, p), total(after, p), rb.get(p), ra.get(p))
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
    Deal.objects.bulk_update(events, ["event"])
    return result


def _change(
    deal: Deal,
    user: User | None,
    reason: str,
    action: str,
    apply,
    at_table: bool = False,
    holder: str = "",
) -> tuple[Deal, list[Effect]]:
    reason = _reason(reason, gettext_noop("say why the deal changes"))
    with transaction.atomic():
        match = (
            Match.objects.select_for_update(of=("self",))
            .select_related("table__club_night__season")
            .get(pk=deal.match_id)
        )
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
        before = _season_lines(match)
        version = DealVersion.objects.create(
            deal=locked,
            action=action,
            record_before=locked.record,
            reason=reason.strip(),
            changed_by=user,
            at_table=at_table,
            confirmed_by_id=locked.confirmed_by_id,
            confirmed_at=locked.confirmed_at,
        )
        apply(match, locked)
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
        effect = _effect(match, before, _season_lines(match))
        version.effect = [e.to_dict() for e in effect]
        version.save(update_fields=["effect"])
        progress.changed(match.pk)
        announce("correction.applied", change=version.pk)
    return locked, effect


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
    if deal.deleted_at is not None:
        raise Rejection(
            (error("deleted", "", gettext_noop("restore the deal before correcting it")),),
            conflict=True,
        )

    def apply(match: Match, locked: Deal) -> None:
        before = match.deals.filter(deleted_at__isnull=True, number__lt=locked.number).order_by(
            "number"
        )
        locked.record = checked_alone(complete_record(match, record, [d.record for d in before]))

    return _change(deal, user, reason, DealVersion.Action.CORRECTED, apply, at_table, holder)


def delete_deal(
    deal: Deal, user: User | None, reason: str, *, at_table: bool = False
) -> tuple[Deal, list[Effect]]:
    """Take a deal out of the match; it keeps its number and its history."""
    if deal.deleted_at is not None:
        raise Rejection(
            (error("deleted", "", gettext_noop("the deal is deleted already")),), conflict=True
        )

    def apply(match: Match, locked: Deal) -> None:
        locked.deleted_at = timezone.now()

    return _change(deal, user, reason, DealVersion.Action.DELETED, apply, at_table)


def restore_deal(deal: Deal, user: User, reason: str) -> tuple[Deal, list[Effect]]:
    """Bring a deleted deal back (administrators only: checked by the caller)."""
    if deal.deleted_at is None:
        raise Rejection(
            (error("not_deleted", "", gettext_noop("the deal is not deleted")),), conflict=True
        )

    def apply(match: Match, locked: Deal) -> None:
        locked.deleted_at = None

    return _change(deal, user, reason, DealVersion.Action.RESTORED, apply)


def _reason(reason: str | None, missing: str = gettext_noop("say why")) -> str:
    """The reason given for a change, stripped; refused when empty (``missing`` says so)
    or longer than the history keeps (the same for deals' and matches' histories)."""
    text = (reason or "").strip()
    if not text:
        raise Rejection((error("missing_field", "reason", missing),))
    limit = MatchEvent._meta.get_field("reason").max_length or 500
    if len(text) > limit:
        raise Rejection(
            (
                error(
                    "out_of_range",
                    "reason",
                    gettext_noop("a reason is at most %(limit)s characters"),
                    limit=limit,
                ),
            )
        )
    return text


def end_match(match: Match, user: User | None, reason: str, *, empty: bool = False) -> Match:
    """End an open match by hand ("End the match": an open-ended Napoleon or Rettler
    match, a night that stops early): it is finished as it stands, its winner by the
    game's own ranking, and it counts as finished in the standings (matches won).
    ``empty``: a match with no deal may end too (a round ended early: nobody wins it)."""
    text = _reason(reason)
    with transaction.atomic():
        locked = Match.objects.select_for_update().get(pk=match.pk)
        if locked.status == Match.Status.FINISHED:
            raise Rejection(
                (error("match_finished", "", gettext_noop("this match is finished already")),),
                conflict=True,
            )
        if not empty and not locked.deals.filter(deleted_at__isnull=True).exists():
            raise Rejection(
                (
                    error(
                        "no_deal",
                        "",
                        gettext_noop("a match with no deal cannot end: delete it instead"),
                    ),
                )
            )
        Match.objects.filter(pk=match.pk).update(
            status=Match.Status.FINISHED, finished_at=timezone.now(), ended_by_hand=True
        )
        MatchEvent.objects.create(
            match=locked, action=MatchEvent.Action.ENDED, reason=text, changed_by=user
        )
        progress.changed(match.pk, deals_changed=False)
        announce("match.finished", match=match.pk)
    match.refresh_from_db()
    return match


def reopen_match(match: Match, user: User | None, reason: str) -> Match:
    """An administrator reopens a finished match (its deals can be corrected, or more
    entered when it was ended by hand); the reason is in the match's history."""
    text = _reason(reason)
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
        progress.changed(match.pk, deals_changed=False)
    match.refresh_from_db()
    return match
