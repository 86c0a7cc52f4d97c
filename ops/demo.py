"""The demo club: a season of every game, ten players, three club nights played, and the
matches each game's web module puts on them (``LeagueGame.demo_matches``), each played
again on the other two nights by other players (the same deals, the players rotated),
so that every game's plot has three nights to show; and the next night, a week after
the day the demo is loaded, with no table yet (to draw, to call off, to be told of).

Every deal goes through ``actions.deals.enter_deal``, so the engine accepts each one
exactly as a scorer's entry would be accepted.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

import actions.deals
import actions.matches
from tournaments.games import LEAGUE_GAMES
from tournaments.games.base import DemoMatch
from tournaments.models import Club, ClubNight, Membership, Player, Season, Table

DEMO_CLUB = "Kanda Card Club"
ADMIN = ("admin", "demo-admin-2026")
SCORER = ("scorer", "demo-scorer-2026")
MEMBER = ("member", "demo-member-2026")
"""The member plays as Aki (``Player.user``): they may confirm deals of Aki's matches."""

PLAYERS = [
    ("aki", "Aki", "亜紀"),
    ("ben", "Ben", ""),
    ("chika", "Chika", "千佳"),
    ("dai", "Dai", "大"),
    ("emi", "Emi", "恵美"),
    ("fumi", "Fumi", "文"),
    ("gen", "Gen", "玄"),
    ("hana", "Hana", "花"),
    ("ito", "Ito", "伊藤"),
    ("jun", "Jun", "純"),
]


@transaction.atomic
def load_demo() -> Club | None:
    """Create the demo club; ``None`` when it exists already (loading is idempotent)."""
    if Club.objects.filter(name=DEMO_CLUB).exists():
        return None
    users = get_user_model()
    admin = users.objects.filter(username=ADMIN[0]).first() or users.objects.create_superuser(
        ADMIN[0], "admin@example.org", ADMIN[1]
    )
    scorer = users.objects.filter(username=SCORER[0]).first() or users.objects.create_user(
        SCORER[0], "scorer@example.org", SCORER[1]
    )
    member = users.objects.filter(username=MEMBER[0]).first() or users.objects.create_user(
        MEMBER[0], "member@example.org", MEMBER[1]
    )
    club = Club.objects.create(name=DEMO_CLUB, slug="kanda")
    Membership.objects.bulk_create(
        [
            Membership(club=club, user=admin, role=Membership.Role.ADMIN),
            Membership(club=club, user=scorer, role=Membership.Role.SCORER),
            Membership(club=club, user=member, role=Membership.Role.MEMBER),
        ]
    )
    players = {
        handle: Player.objects.create(
            club=club,
            handle=handle,
            display_name=name,
            name_ja=ja,
            user=member if handle == "aki" else None,
        )
        for handle, name, ja in PLAYERS
    }
    upcoming = timezone.localdate() + dt.timedelta(days=7)
    season = Season.objects.create(
        club=club,
        name="Autumn League 2026",
        games=list(LEAGUE_GAMES),
        starts_on=dt.date(2026, 10, 1),
        ends_on=max(dt.date(2026, 12, 20), upcoming),
        public=True,
    )
    nights = [
        ClubNight.objects.create(
            season=season, date=dt.date(2026, 10, d), venue="Kanda hall, room 2"
        )
        for d in (3, 17, 31)
    ]
    planned = [(game.name, demo) for game in LEAGUE_GAMES.values() for demo in game.demo_matches()]
    handles = [h for h, _n, _j in PLAYERS]
    again = []
    for game, demo in sorted(planned, key=lambda item: item[1].night):  # stable: registry order
        _play(nights[demo.night], game, demo, players, scorer, {})
        for other in range(len(nights)):
            if other != demo.night:  # the others play it too: every player moved on by 3
                turn = (other - demo.night) % len(nights)
                rotated = {h: handles[(i + 3 * turn) % len(handles)] for i, h in enumerate(handles)}
                again.append((nights[other], game, demo, rotated))
    for night, game, demo, rotated in again:  # after the demo's own: those come first
        _play(night, game, demo, players, scorer, rotated)
    ClubNight.objects.create(season=season, date=upcoming, venue="Kanda hall, room 2")
    return club


def _play(
    night: ClubNight,
    game: str,
    demo: DemoMatch,
    players: dict[str, Player],
    scorer: Any,
    rotated: dict[str, str],
) -> None:
    """Play ``demo`` on ``night``, its players renamed by ``rotated``."""
    table, _made = Table.objects.get_or_create(
        club_night=night, name=demo.table, defaults={"scorer": scorer}
    )
    seated = [players[rotated.get(h, h)] for h in demo.players]
    match = actions.matches.create_match(table, game, seated, rules=demo.rules, target=demo.target)
    for record in demo.deals:
        actions.deals.enter_deal(match, _renamed(record, rotated), user=scorer).stored()


def _renamed(value: Any, names: dict[str, str]) -> Any:
    """A record with every string that is a handle of ``names`` replaced at once."""
    if isinstance(value, dict):
        return {_renamed(k, names): _renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    return names.get(value, value) if isinstance(value, str) else value
