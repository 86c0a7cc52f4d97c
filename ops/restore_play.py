"""Restoring a match from a club's backup (``ops.restore``): its deals, each re-entered
through ``actions.deals.enter_deal`` with its versions and confirmation, its events and its
end; and the accounts of this database those name (who entered, confirmed or changed)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model

import actions.deals
import actions.matches
import engine
from actions import after, confirmation
from ops.document import ImportError_, checked, flag, listed, moment, obj, text
from tournaments import errors
from tournaments.models import DealScore, DealVersion, Match, MatchEvent, Player, Table


@dataclass(frozen=True)
class Accounts:
    """The accounts of this database a restore may link to (memberships, players' accounts,
    scorers, who entered, confirmed or changed a deal), by user name: only those the
    operator names (``names``), or every one (``names=None``, restoring onto the site the
    file was made on).  An account not named is left out: a same-named account of another
    person gets no role and no deal."""

    names: frozenset[str] | None = frozenset()
    left_out: set[str] = field(default_factory=set, compare=False)
    """The file's user names that got no account: not named, or no such account here."""

    def get(self, name: Any, where: str) -> Any:
        if name is None:
            return None
        if not isinstance(name, str):
            raise ImportError_(f"{where}: a user name is a string, not {name!r}")
        account = None
        if self.names is None or name in self.names:
            account = get_user_model().objects.filter(username=name).first()
        if account is None:
            self.left_out.add(name)
        return account


def import_match(
    table: Table, m: Any, where: str, players: dict[str, Player], accounts: Accounts
) -> None:
    """Restore a match at ``table``: its players, rules and deals, each re-entered through
    ``actions.deals.enter_deal``; its events; its end as the engine derives it (or by hand, as
    the file says and why); a refusal names the object by its place in the file."""
    game = text(m, "game", where)
    if game not in engine.GAMES:
        raise ImportError_(f"{where}.game: unknown game {game!r}")
    seats = []
    for i, handle in enumerate(listed(m, "seats", where)):
        if handle not in players:
            raise ImportError_(f"{where}.seats[{i}]: no player {handle!r} in the file")
        seats.append(players[handle])
    target = m.get("target")
    rules = m.get("rules") or {}
    checked(Match(table=table, game=game, rules=rules, target=target), where, exclude=["table"])
    try:
        match = actions.matches.create_match(table, game, seats, rules=rules, target=target)
    except errors.Rejection as rejection:
        raise ImportError_(f"{where}: {rejection}") from None
    Match.objects.filter(pk=match.pk).update(created_at=moment(m, "created_at", where))
    for i, d in enumerate(listed(m, "deals", where)):
        _import_deal(match, d, f"{where}.deals[{i}]", accounts)
    match.refresh_from_db()
    status = text(m, "status", where)
    if status not in Match.Status.values:
        raise ImportError_(f"{where}.status: {status!r} is not open or finished")
    for i, e in enumerate(listed(m, "events", where, [])):
        at = f"{where}.events[{i}]"
        event = MatchEvent(
            match=match,
            action=text(e, "action", at),
            reason=text(e, "reason", at),
            changed_by=accounts.get(e.get("changed_by"), f"{at}.changed_by"),
            changed_at=moment(e, "changed_at", at),
        )
        checked(event, at, exclude=["changed_by"]).save()
    if flag(m, "ended_by_hand", where) and status == Match.Status.FINISHED:
        if match.status != Match.Status.FINISHED:  # ended by hand: as the file says, and why
            if not match.events.filter(action=MatchEvent.Action.ENDED).exists():
                raise ImportError_(f"{where}.ended_by_hand: ended by hand, but no event says why")
            Match.objects.filter(pk=match.pk).update(
                status=Match.Status.FINISHED, ended_by_hand=True
            )
            match.refresh_from_db()
    if status == Match.Status.FINISHED and match.status != Match.Status.FINISHED:
        raise ImportError_(
            f"{where}.status: finished in the file, but its deals do not end the match"
        )
    if status == Match.Status.OPEN and match.status == Match.Status.FINISHED:  # reopened
        Match.objects.filter(pk=match.pk).update(status=Match.Status.OPEN, finished_at=None)


def _import_deal(match: Match, d: Any, where: str, accounts: Accounts) -> None:
    number = d.get("number") if isinstance(d, dict) else None
    entered_by = accounts.get(
        d.get("entered_by") if isinstance(d, dict) else None, f"{where}.entered_by"
    )
    try:
        deal = actions.deals.enter_deal(
            match, obj(d, "record", where), user=entered_by, number=number
        ).stored()
    except errors.Rejection as rejection:
        raise ImportError_(f"{where}: deal {number} of a {match.game} match: {rejection}") from None
    deal.entered_at = moment(d, "entered_at", where)
    deal.deleted_at = moment(d, "deleted_at", where, optional=True)
    deal.confirmed_by = accounts.get(d.get("confirmed_by"), f"{where}.confirmed_by")
    deal.confirmed_at = moment(d, "confirmed_at", where, optional=True)
    deal.entered_at_table = d.get("entered_at_table") is True
    confirmer = d.get("confirmed_by_player")
    if confirmer is not None:  # a PIN confirmation at the table: a seated player's
        seat = match.seats.select_related("player").filter(player__handle=confirmer).first()
        if seat is None:
            raise ImportError_(f"{where}.confirmed_by_player: {confirmer!r} is not seated")
        deal.confirmed_by_player = seat.player
        if deal.confirmed_at is None:
            raise ImportError_(f"{where}.confirmed_at: a confirmation needs its time")
    deal.revised_by = accounts.get(d.get("revised_by"), f"{where}.revised_by")
    if deal.confirmed_by is not None and deal.confirmed_by.pk in confirmation.deciders(deal):
        raise ImportError_(f"{where}.confirmed_by: confirmed by who entered or changed it")
    if deal.confirmed_by is not None and deal.confirmed_at is None:
        raise ImportError_(f"{where}.confirmed_at: a confirmation needs its time")
    deal.save(
        update_fields=[
            "entered_at",
            "entered_at_table",
            "deleted_at",
            "confirmed_by",
            "confirmed_by_player",
            "confirmed_at",
            "revised_by",
        ]
    )
    if deal.deleted_at is not None:  # as corrections.delete_deal left it: no scores
        DealScore.objects.filter(deal=deal).delete()
    versions = []
    for i, v in enumerate(listed(d, "versions", where, [])):
        at = f"{where}.versions[{i}]"
        version = DealVersion(
            deal=deal,
            action=text(v, "action", at),
            record_before=obj(v, "record_before", at),
            reason=text(v, "reason", at),
            changed_by=accounts.get(v.get("changed_by"), f"{at}.changed_by"),
            changed_at=moment(v, "changed_at", at),
            at_table=v.get("at_table") is True,
            confirmed_by=accounts.get(v.get("confirmed_by"), f"{at}.confirmed_by"),
            confirmed_at=moment(v, "confirmed_at", at, optional=True),
            effect=v.get("effect", []),
        )
        versions.append(checked(version, at, exclude=["deal", "changed_by"]))
    DealVersion.objects.bulk_create(versions)
    if deal.deleted_at is not None or versions:
        after.match_edited(match.pk)  # the kept progress is of the deals as entered
