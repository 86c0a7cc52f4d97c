"""A club's data as one JSON document, and back: the backup behind export_club/import_club.

The document holds what cannot be derived: players (with their PINs, hashed as kept),
seasons, club nights with how their standings are counted, their rounds and who sat
out of each, tables, matches with their seats, and every deal record with who entered
it and when, who confirmed it, and every previous version of it with its confirmation
(deleted deals included, still deleted after the import); the club's memberships and
the players' accounts by user name.  Left out on purpose: table links and invitations
(secrets of this site: the restored club makes new ones), uploaded score sheets (the
deals they made are in), and the derived standings and ratings.  Accounts themselves are not in the backup:
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
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import identify_hasher
from django.core import signing
from django.db import transaction
from django.utils.crypto import constant_time_compare

import engine
from ops.document import (
    ImportError_,
    checked,
    day,
    flag,
    listed,
    moment,
    obj,
    saved,
    text,
)
from tournaments import actions, confirmation, progress
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
    Round,
    Season,
    Table,
)
from tournaments.names import look_alike

FORMAT = "clubscore-club/1"


def export_club(club: Club) -> dict[str, Any]:
    """The club as one document, signed (:func:`sign`)."""
    players = list(club.players.order_by("pk"))
    seasons = []
    for season in club.seasons.order_by("pk"):
        nights = []
        for night in season.club_nights.order_by("date", "pk"):
            tables = []
            for table in night.tables.order_by("pk").select_related("round", "scorer"):
                matches = []
                for match in table.matches.order_by("pk").prefetch_related("seats__player"):
                    deals = [
                        _deal(d)
                        for d in match.deals.order_by("number").select_related(
                            "entered_by", "confirmed_by", "revised_by", "confirmed_by_player"
                        )
                    ]
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
                               "round": table.round.number if table.round else None,
                               "matches": matches})  # fmt: skip
            nights.append({
                "date": night.date.isoformat(), "venue": night.venue,
                "deals_per_match": night.deals_per_match, "standings": night.standings,
                "rank_points": night.rank_points, "rounds": _rounds(night), "tables": tables,
            })  # fmt: skip
        seasons.append({
            "name": season.name, "games": season.games,
            "starts_on": season.starts_on.isoformat() if season.starts_on else None,
            "ends_on": season.ends_on.isoformat() if season.ends_on else None, "club_nights": nights,
            "require_confirmation": season.require_confirmation, "public": season.public,
        })  # fmt: skip
    return sign(
        {
            "format": FORMAT,
            "club": {"name": club.name, "slug": club.slug},
            "players": [
                {
                    "handle": p.handle,
                    "display_name": p.display_name,
                    "name_ja": p.name_ja,
                    "user": _username(p.user),
                    "pin": p.pin,
                }
                for p in players
            ],
            "members": [
                {"user": m.user.get_username(), "role": m.role}
                for m in club.memberships.select_related("user").order_by("pk")
            ],
            "seasons": seasons,
        }
    )


def _rounds(night: ClubNight) -> list[dict[str, Any]]:
    return [
        {
            "number": r.number,
            "game": r.game,
            "method": r.method,
            "deals": r.deals,
            "sat_out": sorted(p.handle for p in r.sat_out.all()),
            "created_by": _username(r.created_by),
            "created_at": r.created_at.isoformat(),
            "ended_early_at": _iso(r.ended_early_at),
            "ended_early_reason": r.ended_early_reason,
        }  # fmt: skip
        for r in night.rounds.order_by("number").prefetch_related("sat_out")
    ]


def _deal(d: Deal) -> dict[str, Any]:
    return {
        "number": d.number,
        "record": d.record,
        "entered_by": _username(d.entered_by),
        "entered_at": d.entered_at.isoformat(),
        "entered_at_table": d.entered_at_table,
        "deleted_at": _iso(d.deleted_at),
        "confirmed_by": _username(d.confirmed_by),
        "confirmed_at": _iso(d.confirmed_at),
        "confirmed_by_player": d.confirmed_by_player.handle if d.confirmed_by_player else None,
        "revised_by": _username(d.revised_by),
        "versions": [
            {
                "action": v.action,
                "record_before": v.record_before,
                "reason": v.reason,
                "changed_by": _username(v.changed_by),
                "changed_at": v.changed_at.isoformat(),
                "at_table": v.at_table,
                "confirmed_by": _username(v.confirmed_by),
                "confirmed_at": _iso(v.confirmed_at),
                "effect": v.effect,
            }
            for v in d.versions.order_by("changed_at", "pk").select_related(
                "changed_by", "confirmed_by"
            )
        ],
    }


def identify_hasher_or_none(encoded: str) -> Any:
    try:
        return identify_hasher(encoded)
    except ValueError:
        return None


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
    about = obj(doc, "club", "")
    if Club.objects.filter(slug=about.get("slug")).exists():
        raise ImportError_(f"club {about.get('slug')!r} exists already")
    if Club.objects.filter(name_key=look_alike(text(about, "name", "club"))).exists():
        raise ImportError_("club.name: a club of this name, or one that looks like it, exists")
    club = saved(Club(name=text(about, "name", "club"), slug=text(about, "slug", "club")), "club")
    players: dict[str, Player] = {}
    for i, p in enumerate(listed(doc, "players", "")):
        where = f"players[{i}]"
        player = Player(
            club=club,
            handle=text(p, "handle", where),
            display_name=text(p, "display_name", where),
            name_ja=text(p, "name_ja", where, ""),
            user=accounts.get(p.get("user"), f"{where}.user"),
            pin=text(p, "pin", where, ""),
        )
        if player.pin and not identify_hasher_or_none(player.pin):
            raise ImportError_(f"{where}.pin: not a PIN as this site keeps them")
        players[player.handle] = saved(player, where)
    for i, m in enumerate(listed(doc, "members", "")):
        where = f"members[{i}]"
        user = accounts.get(text(m, "user", where), f"{where}.user")
        if user is not None:
            saved(Membership(club=club, user=user, role=text(m, "role", where)), where)
    for i, s in enumerate(listed(doc, "seasons", "")):
        _import_season(club, s, f"seasons[{i}]", players, accounts)
    return club


def _import_season(
    club: Club, s: Any, where: str, players: dict[str, Player], accounts: Accounts
) -> None:
    games = s.get("games") if isinstance(s, dict) else None
    season = saved(
        Season(
            club=club,
            name=text(s, "name", where),
            games=games,
            starts_on=day(s, "starts_on", where, optional=True),
            ends_on=day(s, "ends_on", where, optional=True),
            require_confirmation=flag(s, "require_confirmation", where),
            public=flag(s, "public", where),
        ),
        where,
    )
    for j, n in enumerate(listed(s, "club_nights", where)):
        at = f"{where}.club_nights[{j}]"
        night = saved(
            ClubNight(
                season=season,
                date=day(n, "date", at) or dt.date.min,
                venue=text(n, "venue", at, ""),
                deals_per_match=n.get("deals_per_match"),
                standings=text(n, "standings", at, ClubNight.Standings.POINTS),
                rank_points=n.get("rank_points") or [],
            ),
            at,
        )
        rounds = _import_rounds(night, n, at, players, accounts)
        for k, t in enumerate(listed(n, "tables", at)):
            table_at = f"{at}.tables[{k}]"
            number = t.get("round")
            if number is not None and number not in rounds:
                raise ImportError_(f"{table_at}.round: no round {number!r} in the night")
            table = saved(
                Table(
                    club_night=night,
                    round=rounds.get(number) if number is not None else None,
                    name=text(t, "name", table_at),
                    scorer=accounts.get(t.get("scorer"), f"{table_at}.scorer"),
                ),
                table_at,
            )
            for m, match in enumerate(listed(t, "matches", table_at)):
                _import_match(table, match, f"{table_at}.matches[{m}]", players, accounts)


def _import_rounds(
    night: ClubNight, n: Any, where: str, players: dict[str, Player], accounts: Accounts
) -> dict[int, Round]:
    """The night's rounds by number, with who sat out (players of the file)."""
    rounds: dict[int, Round] = {}
    for i, r in enumerate(listed(n, "rounds", where, [])):
        at = f"{where}.rounds[{i}]"
        number = r.get("number") if isinstance(r, dict) else None
        if not isinstance(number, int) or isinstance(number, bool) or not 0 < number < 2**15:
            raise ImportError_(f"{at}.number: a round's number, not {number!r:.40}")
        made = saved(
            Round(
                club_night=night,
                number=number,
                game=text(r, "game", at),
                method=text(r, "method", at),
                deals=r.get("deals"),
                created_by=accounts.get(r.get("created_by"), f"{at}.created_by"),
                created_at=moment(r, "created_at", at),
                ended_early_at=moment(r, "ended_early_at", at, optional=True),
                ended_early_reason=text(r, "ended_early_reason", at, ""),
            ),
            at,
        )
        out = []
        for j, handle in enumerate(listed(r, "sat_out", at, [])):
            if handle not in players:
                raise ImportError_(f"{at}.sat_out[{j}]: no player {handle!r} in the file")
            out.append(players[handle])
        made.sat_out.set(out)
        rounds[made.number] = made
    return rounds


def _import_match(
    table: Table, m: Any, where: str, players: dict[str, Player], accounts: Accounts
) -> None:
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
        match = actions.create_match(table, game, seats, rules=rules, target=target)
    except actions.Rejection as rejection:
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
        deal = actions.enter_deal(match, obj(d, "record", where), user=entered_by, number=number)
    except actions.Rejection as rejection:
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
        progress.changed(match.pk)  # the kept progress is of the deals as entered
