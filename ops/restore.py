"""Restoring a club from its backup (``ops.backup``): the work behind ``import_club``.

A restore trusts nothing it can check: every object is checked as the pages check it
(``full_clean``: lengths, handles, roles, games, dates), every deal is re-entered
through ``actions.enter_deal`` (the engine checks it as the next deal of its match),
a match's end is the engine's (a file cannot finish an unfinished match), and a
confirmation by the one who entered or changed a deal is refused.  Every refusal
names the object by its place in the file (``seasons[0].club_nights[2].date``) and
nothing is written.  An unsigned or changed file is restored only when the operator
says so.  Standings are derived data: the import rebuilds them from the deals.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.hashers import identify_hasher
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

import actions.divisions
import actions.seasons
from ops.backup import FORMAT, signed
from ops.document import (
    ImportError_,
    clock,
    day,
    flag,
    listed,
    moment,
    obj,
    saved,
    text,
    whole,
)
from ops.restore_play import Accounts, import_match
from tournaments.errors import Rejection
from tournaments.models import (
    Club,
    ClubNight,
    Deal,
    DealVersion,
    Division,
    Match,
    MatchEvent,
    Membership,
    Move,
    MovesBy,
    Placement,
    Player,
    Round,
    Season,
    Table,
)
from tournaments.names import look_alike


def _kept_pin(encoded: str) -> bool:
    """``encoded`` is a PIN as this site keeps them (a hash it can check)."""
    try:
        identify_hasher(encoded)
    except ValueError:
        return False
    return True


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
    club = saved(
        Club(
            name=text(about, "name", "club"),
            slug=text(about, "slug", "club"),
            # A backup made before clubs had a time zone: the default, as then.
            time_zone=text(about, "time_zone", "club", "Asia/Tokyo"),
        ),
        "club",
    )
    players: dict[str, Player] = {}
    for i, p in enumerate(listed(doc, "players", "")):
        where = f"players[{i}]"
        player = Player(
            club=club,
            handle=text(p, "handle", where),
            display_name=text(p, "display_name", where),
            name_ja=text(p, "name_ja", where, ""),
            reading=text(p, "reading", where, ""),
            user=accounts.get(p.get("user"), f"{where}.user"),
            pin=text(p, "pin", where, ""),
        )
        if player.pin and not _kept_pin(player.pin):
            raise ImportError_(f"{where}.pin: not a PIN as this site keeps them")
        players[player.handle] = saved(player, where)
    for i, m in enumerate(listed(doc, "members", "")):
        where = f"members[{i}]"
        user = accounts.get(text(m, "user", where), f"{where}.user")
        if user is not None:
            saved(Membership(club=club, user=user, role=text(m, "role", where)), where)
    made = [
        _import_season(club, s, f"seasons[{i}]", players, accounts)
        for i, s in enumerate(listed(doc, "seasons", ""))
    ]
    for i, (season, s) in enumerate(zip(made, listed(doc, "seasons", ""), strict=True)):
        _import_closing(season, s, f"seasons[{i}]", players, {x.name: x for x in made})
    return club


def restored(club: Club) -> dict[str, int]:
    """What ``club`` has, counted by kind, as ``import_club`` reports a restore."""
    season, night = {"season__club": club}, {"club_night__season__club": club}
    match = {"match__table__club_night__season__club": club}
    counted: dict[str, QuerySet[Any]] = {
        "players": Player.objects.filter(club=club),
        "members": Membership.objects.filter(club=club),
        "seasons": Season.objects.filter(club=club),
        "divisions": Division.objects.filter(**season),
        "placements": Placement.objects.filter(**season),
        "moves": Move.objects.filter(**season),
        "club nights": ClubNight.objects.filter(**season),
        "rounds": Round.objects.filter(**night),
        "tables": Table.objects.filter(**night),
        "matches": Match.objects.filter(table__club_night__season__club=club),
        "match events": MatchEvent.objects.filter(**match),
        "deals": Deal.objects.filter(**match),
        "deleted deals": Deal.objects.filter(deleted_at__isnull=False, **match),
        "deal versions": DealVersion.objects.filter(
            deal__match__table__club_night__season__club=club
        ),
    }
    return {kind: rows.count() for kind, rows in counted.items()}


def _import_season(
    club: Club, s: Any, where: str, players: dict[str, Player], accounts: Accounts
) -> Season:
    games = s.get("games") if isinstance(s, dict) else None
    season = Season(
        club=club,
        name=text(s, "name", where),
        games=games,
        starts_on=day(s, "starts_on", where, optional=True),
        ends_on=day(s, "ends_on", where, optional=True),
        require_confirmation=flag(s, "require_confirmation", where),
        public=flag(s, "public", where),
        # A backup made before seasons chose their ranking: total points, as then.
        ranking=text(s, "ranking", where, "total"),
        best_of=whole(s, "best_of", where, None),
        qualify_by=text(s, "qualify_by", where, "nights"),
        qualify_minimum=whole(s, "qualify_minimum", where, 0),
        # A backup made before divisions: the default rule.
        moves_by=text(s, "moves_by", where, MovesBy.COUNT),
        moves=whole(s, "moves", where, 2),
        # A backup made before seasons chose their games' variants: none.
        rules=s.get("rules", {}) if isinstance(s, dict) else {},
    )
    if unfit := actions.seasons.rules_problem(season):
        raise ImportError_(f"{where}.rules: {unfit}")
    saved(season, where)
    _import_divisions(season, s, where, players)
    for j, n in enumerate(listed(s, "club_nights", where)):
        at = f"{where}.club_nights[{j}]"
        night = saved(
            ClubNight(
                season=season,
                date=day(n, "date", at) or dt.date.min,
                name=text(n, "name", at, ""),
                venue=text(n, "venue", at, ""),
                deals_per_match=n.get("deals_per_match"),
                standings=text(n, "standings", at, ClubNight.Standings.POINTS),
                rank_points=n.get("rank_points") or [],
                final=flag(n, "final", at),
                # A backup made before calendars: no times, held, sequence 0.
                starts_at=clock(n, "starts_at", at, optional=True),
                ends_at=clock(n, "ends_at", at, optional=True),
                cancelled_at=moment(n, "cancelled_at", at, optional=True),
                sequence=whole(n, "sequence", at, 0),
                changed_at=moment(n, "changed_at", at, optional=True) or timezone.now(),
            ),
            at,
        )
        night.present.set(_named(n, "present", at, players))
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
                import_match(table, match, f"{table_at}.matches[{m}]", players, accounts)
    return season


def _import_divisions(season: Season, s: Any, where: str, players: dict[str, Player]) -> None:
    """The season's divisions and who is placed in each (checked as the page checks them)."""
    given = listed(s, "divisions", where, [])
    names = [text(d, "name", f"{where}.divisions[{i}]") for i, d in enumerate(given)]
    places: dict[int, str] = {}
    for i, d in enumerate(given):
        at = f"{where}.divisions[{i}]"
        for player in _named(d, "players", at, players):
            if player.pk in places:
                raise ImportError_(f"{at}.players: {player.handle} is in two divisions")
            places[player.pk] = names[i]
    if not names:
        return
    try:
        actions.divisions.set_divisions(
            season, names, places, moves_by=season.moves_by, moves=season.moves
        )
    except Rejection as refused:
        problem = refused.errors[0]
        raise ImportError_(f"{where}.divisions: {problem['message']}") from None


def _import_closing(
    season: Season, s: Any, where: str, players: dict[str, Player], seasons: dict[str, Season]
) -> None:
    """A closed season's next season (one of the file's) and its moves."""
    following = s.get("next_season") if isinstance(s, dict) else None
    if following is None:
        return
    if following not in seasons or seasons[following].pk == season.pk:
        raise ImportError_(f"{where}.next_season: no other season {following!r} in the file")
    season.closed_at = moment(s, "closed_at", where)
    season.next_season = seasons[following]
    season.save(update_fields=["closed_at", "next_season"])
    for j, m in enumerate(listed(s, "moves_made", where, [])):
        at = f"{where}.moves_made[{j}]"
        handle = text(m, "player", at)
        if handle not in players:
            raise ImportError_(f"{at}.player: no player {handle!r} in the file")
        saved(
            Move(
                season=season,
                next_season=seasons[following],
                player=players[handle],
                kind=text(m, "kind", at),
                division=text(m, "division", at, ""),
                rank=whole(m, "rank", at, None),
                next_division=text(m, "next_division", at, ""),
                made_at=moment(m, "made_at", at),
            ),
            at,
        )


def _named(doc: dict[str, Any], key: str, at: str, players: dict[str, Player]) -> list[Player]:
    """The players whose handles ``doc[key]`` lists (optional), each one of the file's."""
    out = []
    for j, handle in enumerate(listed(doc, key, at, [])):
        if handle not in players:
            raise ImportError_(f"{at}.{key}[{j}]: no player {handle!r} in the file")
        out.append(players[handle])
    return out


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
        made.sat_out.set(_named(r, "sat_out", at, players))
        rounds[made.number] = made
    return rounds
