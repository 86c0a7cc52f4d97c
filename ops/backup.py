"""A club's data as one JSON document, and back: the backup behind export_club/import_club.

The document holds what cannot be derived: players, seasons, club nights,
tables, matches with their seats, and every deal record with who entered it and
when, who confirmed it, and every previous version of it with its confirmation
(deleted deals included, still deleted after the import); the club's memberships
and the players' accounts by user name.  Accounts themselves are not in the backup:
an import links only the accounts of this database the operator names
(:class:`Accounts`).  Standings are derived data: an import rebuilds them from the
deals.

A restore trusts nothing it can check: every object is checked as the pages check it
(``full_clean``: lengths, handles, roles, games, dates), every deal is re-entered
through ``actions.enter_deal`` (the engine checks it as the next deal of its match),
a match's end is the engine's (a file cannot finish an unfinished match), and a
confirmation by the one who entered or changed a deal is refused.  Every refusal
names the object by its place in the file (``seasons[0].club_nights[2].date``) and
nothing is written.  The file is signed (:func:`sign`); an unsigned or changed file is
restored only when the operator says so.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Model
from django.utils.crypto import constant_time_compare
from django.utils.dateparse import parse_date, parse_datetime

import engine
from tournaments import actions, progress
from tournaments.models import (
    Club,
    ClubNight,
    Deal,
    DealScore,
    DealVersion,
    Match,
    MatchEvent,
    Membership,
    Player,
    Season,
    Table,
)

FORMAT = "clubscore-club/1"


def export_club(club: Club) -> dict[str, Any]:
    """The club as one document, signed (:func:`sign`)."""
    players = list(club.players.order_by("pk"))
    seasons = []
    for season in club.seasons.order_by("pk"):
        nights = []
        for night in season.club_nights.order_by("date", "pk"):
            tables = []
            for table in night.tables.order_by("pk"):
                matches = []
                for match in table.matches.order_by("pk").prefetch_related("seats__player"):
                    deals = [_deal(d) for d in match.deals.order_by("number").select_related(
                        "entered_by", "confirmed_by", "revised_by")]  # fmt: skip
                    matches.append({
                        "game": match.game, "rules": match.rules, "target": match.target,
                        "status": match.status, "ended_by_hand": match.ended_by_hand,
                        "created_at": match.created_at.isoformat(),
                        "seats": [p.handle for p in match.seated_players()], "deals": deals,
                        "events": [{"action": e.action, "reason": e.reason, "changed_by": _username(e.changed_by),
                                    "changed_at": e.changed_at.isoformat()}
                                   for e in match.events.order_by("changed_at", "pk").select_related("changed_by")],
                    })  # fmt: skip
                tables.append({"name": table.name, "scorer": _username(table.scorer),
                               "matches": matches})  # fmt: skip
            nights.append({"date": night.date.isoformat(), "venue": night.venue, "tables": tables})
        seasons.append({
            "name": season.name, "games": season.games,
            "starts_on": season.starts_on.isoformat() if season.starts_on else None,
            "ends_on": season.ends_on.isoformat() if season.ends_on else None, "club_nights": nights,
            "require_confirmation": season.require_confirmation, "public": season.public,
        })  # fmt: skip
    return sign({
        "format": FORMAT,
        "club": {"name": club.name, "slug": club.slug},
        "players": [{"handle": p.handle, "display_name": p.display_name, "name_ja": p.name_ja,
                     "user": _username(p.user)} for p in players],
        "members": [{"user": m.user.get_username(), "role": m.role}
                    for m in club.memberships.select_related("user").order_by("pk")],
        "seasons": seasons,
    })  # fmt: skip


def _deal(d: Deal) -> dict[str, Any]:
    return {
        "number": d.number, "record": d.record, "entered_by": _username(d.entered_by),
        "entered_at": d.entered_at.isoformat(), "deleted_at": _iso(d.deleted_at),
        "confirmed_by": _username(d.confirmed_by), "confirmed_at": _iso(d.confirmed_at),
        "revised_by": _username(d.revised_by),
        "versions": [
            {"action": v.action, "record_before": v.record_before, "reason": v.reason,
             "changed_by": _username(v.changed_by), "changed_at": v.changed_at.isoformat(),
             "confirmed_by": _username(v.confirmed_by), "confirmed_at": _iso(v.confirmed_at),
             "effect": v.effect}
            for v in d.versions.order_by("changed_at", "pk").select_related("changed_by", "confirmed_by")
        ],
    }  # fmt: skip


def _iso(value: dt.datetime | None) -> str | None:
    return value.isoformat() if value else None


# -- the signature --------------------------------------------------------------------------------


def _signer() -> signing.Signer:
    return signing.Signer(
        key=settings.BACKUP_SIGNING_KEY, salt="clubscore.backup", algorithm="sha256"
    )


def _content(doc: dict[str, Any]) -> str:
    body = {k: v for k, v in doc.items() if k != "signature"}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def sign(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with its ``signature``: an HMAC (SHA-256) of its canonical JSON under the
    installation's ``BACKUP_SIGNING_KEY``.  It proves that an installation holding the key
    wrote the file and that nothing in it changed since; it proves nothing of the records'
    truth (they are what the club had), and a file made elsewhere checks only with the
    same key."""
    return {**doc, "signature": _signer().signature(_content(doc))}


def signed(doc: dict[str, Any]) -> bool:
    signature = doc.get("signature")
    return isinstance(signature, str) and constant_time_compare(
        signature, _signer().signature(_content(doc))
    )


def _username(user: Any) -> str | None:
    return user.get_username() if user is not None else None


class ImportError_(ValueError):
    """The document cannot be restored: the message names the object and the field."""


@dataclass(frozen=True)
class Accounts:
    """The accounts of this database a restore may link to (memberships, players' accounts,
    scorers, who entered, confirmed or changed a deal), by user name: only those the
    operator names (``names``), or every one (``names=None``, restoring onto the site the
    file was made on).  An account not named is left out: a same-named account of another
    person gets no role and no deal."""

    names: frozenset[str] | None = frozenset()

    def get(self, name: Any, where: str) -> Any:
        if name is None:
            return None
        if not isinstance(name, str):
            raise ImportError_(f"{where}: a user name is a string, not {name!r}")
        if self.names is not None and name not in self.names:
            return None
        return get_user_model().objects.filter(username=name).first()


@transaction.atomic
def import_club(
    doc: Any, *, accounts: Accounts | None = None, accept_unsigned: bool = False
) -> Club:
    """Restore a club into this database, all or nothing: every object checked as the
    pages would check it (``full_clean``), every deal by the engine as the next deal of
    its match, what the engine derives (a match's end) derived again, a confirmation by
    the one who entered or changed a deal refused; a refusal names the object and field."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ImportError_(f"not a {FORMAT} document")
    if not signed(doc) and not accept_unsigned:
        what = (
            "unsigned"
            if "signature" not in doc
            else "changed since it was signed, or signed elsewhere"
        )
        raise ImportError_(f"the file is {what}: restore it with --accept-unsigned if you trust it")
    accounts = accounts or Accounts()
    about = _object(doc, "club", "")
    if Club.objects.filter(slug=about.get("slug")).exists():
        raise ImportError_(f"club {about.get('slug')!r} exists already")
    club = _valid(
        Club(name=_text(about, "name", "club"), slug=_text(about, "slug", "club")), "club"
    )
    players: dict[str, Player] = {}
    for i, p in enumerate(_list(doc, "players", "")):
        where = f"players[{i}]"
        player = Player(club=club, handle=_text(p, "handle", where),
                        display_name=_text(p, "display_name", where),
                        name_ja=_text(p, "name_ja", where, ""),
                        user=accounts.get(p.get("user"), f"{where}.user"))  # fmt: skip
        players[player.handle] = _valid(player, where)
    for i, m in enumerate(_list(doc, "members", "")):
        where = f"members[{i}]"
        user = accounts.get(_text(m, "user", where), f"{where}.user")
        if user is not None:
            _valid(Membership(club=club, user=user, role=_text(m, "role", where)), where)
    for i, s in enumerate(_list(doc, "seasons", "")):
        _import_season(club, s, f"seasons[{i}]", players, accounts)
    return club


def _import_season(
    club: Club, s: Any, where: str, players: dict[str, Player], accounts: Accounts
) -> None:
    games = s.get("games") if isinstance(s, dict) else None
    season = _valid(Season(club=club, name=_text(s, "name", where), games=games,
                           starts_on=_day(s, "starts_on", where, optional=True),
                           ends_on=_day(s, "ends_on", where, optional=True),
                           require_confirmation=_flag(s, "require_confirmation", where),
                           public=_flag(s, "public", where)), where)  # fmt: skip
    for j, n in enumerate(_list(s, "club_nights", where)):
        at = f"{where}.club_nights[{j}]"
        night = _valid(ClubNight(season=season, date=_day(n, "date", at) or dt.date.min,
                                 venue=_text(n, "venue", at, "")), at)  # fmt: skip
        for k, t in enumerate(_list(n, "tables", at)):
            table_at = f"{at}.tables[{k}]"
            table = _valid(Table(club_night=night, name=_text(t, "name", table_at),
                                 scorer=accounts.get(t.get("scorer"), f"{table_at}.scorer")), table_at)  # fmt: skip
            for m, match in enumerate(_list(t, "matches", table_at)):
                _import_match(table, match, f"{table_at}.matches[{m}]", players, accounts)


def _import_match(
    table: Table, m: Any, where: str, players: dict[str, Player], accounts: Accounts
) -> None:
    game = _text(m, "game", where)
    if game not in engine.GAMES:
        raise ImportError_(f"{where}.game: unknown game {game!r}")
    seats = []
    for i, handle in enumerate(_list(m, "seats", where)):
        if handle not in players:
            raise ImportError_(f"{where}.seats[{i}]: no player {handle!r} in the file")
        seats.append(players[handle])
    target = m.get("target")
    rules = m.get("rules") or {}
    _checked(Match(table=table, game=game, rules=rules, target=target), where, exclude=["table"])
    try:
        match = actions.create_match(table, game, seats, rules=rules, target=target)
    except actions.Rejection as rejection:
        raise ImportError_(f"{where}: {rejection}") from None
    Match.objects.filter(pk=match.pk).update(created_at=_moment(m, "created_at", where))
    for i, d in enumerate(_list(m, "deals", where)):
        _import_deal(match, d, f"{where}.deals[{i}]", accounts)
    match.refresh_from_db()
    status = _text(m, "status", where)
    if status not in Match.Status.values:
        raise ImportError_(f"{where}.status: {status!r} is not open or finished")
    for i, e in enumerate(_list(m, "events", where, [])):
        at = f"{where}.events[{i}]"
        event = MatchEvent(match=match, action=_text(e, "action", at), reason=_text(e, "reason", at),
                           changed_by=accounts.get(e.get("changed_by"), f"{at}.changed_by"),
                           changed_at=_moment(e, "changed_at", at))  # fmt: skip
        _checked(event, at, exclude=["changed_by"]).save()
    if _flag(m, "ended_by_hand", where) and status == Match.Status.FINISHED:
        if match.status != Match.Status.FINISHED:  # ended by hand: as the file says, and why
            if not match.events.filter(action=MatchEvent.Action.ENDED).exists():
                raise ImportError_(f"{where}.ended_by_hand: ended by hand, but no event says why")
            Match.objects.filter(pk=match.pk).update(status=Match.Status.FINISHED, ended_by_hand=True)  # fmt: skip
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
        deal = actions.enter_deal(
            match, _object(d, "record", where), user=entered_by, number=number
        )
    except actions.Rejection as rejection:
        raise ImportError_(f"{where}: deal {number} of a {match.game} match: {rejection}") from None
    deal.entered_at = _moment(d, "entered_at", where)
    deal.deleted_at = _moment(d, "deleted_at", where, optional=True)
    deal.confirmed_by = accounts.get(d.get("confirmed_by"), f"{where}.confirmed_by")
    deal.confirmed_at = _moment(d, "confirmed_at", where, optional=True)
    deal.revised_by = accounts.get(d.get("revised_by"), f"{where}.revised_by")
    if deal.confirmed_by is not None and not deal.may_be_confirmed_by(deal.confirmed_by.pk):
        raise ImportError_(f"{where}.confirmed_by: confirmed by who entered or changed it")
    if deal.confirmed_by is not None and deal.confirmed_at is None:
        raise ImportError_(f"{where}.confirmed_at: a confirmation needs its time")
    deal.save(
        update_fields=["entered_at", "deleted_at", "confirmed_by", "confirmed_at", "revised_by"]
    )
    if deal.deleted_at is not None:  # as corrections.delete_deal left it: no scores
        DealScore.objects.filter(deal=deal).delete()
    versions = []
    for i, v in enumerate(_list(d, "versions", where, [])):
        at = f"{where}.versions[{i}]"
        version = DealVersion(deal=deal, action=_text(v, "action", at),
                              record_before=_object(v, "record_before", at),
                              reason=_text(v, "reason", at), changed_by=accounts.get(v.get("changed_by"), f"{at}.changed_by"),
                              changed_at=_moment(v, "changed_at", at),
                              confirmed_by=accounts.get(v.get("confirmed_by"), f"{at}.confirmed_by"),
                              confirmed_at=_moment(v, "confirmed_at", at, optional=True),
                              effect=v.get("effect", []))  # fmt: skip
        versions.append(_checked(version, at, exclude=["deal", "changed_by"]))
    DealVersion.objects.bulk_create(versions)
    if deal.deleted_at is not None or versions:
        progress.changed(match.pk)  # the kept progress is of the deals as entered


# -- reading the document, each value with its place ----------------------------------------------

M = TypeVar("M", bound=Model)


def _checked(obj: M, where: str, exclude: list[str] | None = None) -> M:
    """``obj`` checked as the pages' forms check it; a refusal names the object and field."""
    try:
        obj.full_clean(exclude=exclude)
    except ValidationError as refused:
        problems = "; ".join(f"{field}: {' '.join(messages)}" for field, messages in refused.message_dict.items())  # fmt: skip
        raise ImportError_(f"{where}: {problems}") from None
    return obj


def _valid(obj: M, where: str) -> M:
    """``obj`` checked (:func:`_checked`) and saved."""
    _checked(obj, where).save()
    return obj


def _object(parent: Any, key: str, where: str) -> dict[str, Any]:
    value = _field(parent, key, where)
    if not isinstance(value, dict):
        raise ImportError_(f"{_at(where, key)}: an object, not {type(value).__name__}")
    return value


def _list(parent: Any, key: str, where: str, default: Any = ...) -> list[Any]:
    value = _field(parent, key, where, default)
    if not isinstance(value, list):
        raise ImportError_(f"{_at(where, key)}: a list, not {type(value).__name__}")
    return value


def _text(parent: Any, key: str, where: str, default: Any = ...) -> str:
    value = _field(parent, key, where, default)
    if not isinstance(value, str):
        raise ImportError_(f"{_at(where, key)}: a text, not {value!r:.40}")
    return value


def _flag(parent: Any, key: str, where: str) -> bool:
    value = _field(parent, key, where, False)
    if not isinstance(value, bool):
        raise ImportError_(f"{_at(where, key)}: true or false, not {value!r:.40}")
    return value


def _day(parent: Any, key: str, where: str, optional: bool = False) -> dt.date | None:
    return _parsed(parent, key, where, parse_date, "a date (YYYY-MM-DD)", optional)


def _moment(parent: Any, key: str, where: str, optional: bool = False) -> Any:
    return _parsed(parent, key, where, parse_datetime, "a date and time", optional)


def _parsed(
    parent: Any, key: str, where: str, parse: Callable[[str], Any], what: str, optional: bool
) -> Any:
    """The value at ``key`` read by ``parse`` (Django's date or date-time reader)."""
    value = _field(parent, key, where, None if optional else ...)
    if value is None and optional:
        return None
    try:
        parsed = parse(value) if isinstance(value, str) else None
    except ValueError:  # well-formed, but no such day (2026-02-30)
        parsed = None
    if parsed is None:
        raise ImportError_(f"{_at(where, key)}: not {what}: {value!r:.40}")
    return parsed


def _field(parent: Any, key: str, where: str, default: Any = ...) -> Any:
    if not isinstance(parent, dict):
        raise ImportError_(f"{where or 'the file'}: an object, not {type(parent).__name__}")
    if key not in parent:
        if default is ...:
            raise ImportError_(f"{_at(where, key)}: missing")
        return default
    return parent[key]


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key
