"""The demo club: a season of every game, ten players, three club nights, and the
matches each game's web module puts on them (``LeagueGame.demo_matches``).

Every deal goes through ``actions.enter_deal``, so the engine accepts each one
exactly as a scorer's entry would be accepted.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.db import transaction

from tournaments import actions
from tournaments.games import LEAGUE_GAMES
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
    Membership.objects.bulk_create([
        Membership(club=club, user=admin, role=Membership.Role.ADMIN),
        Membership(club=club, user=scorer, role=Membership.Role.SCORER),
        Membership(club=club, user=member, role=Membership.Role.MEMBER),
    ])  # fmt: skip
    players = {
        handle: Player.objects.create(
            club=club,
            handle=handle,
            display_name=name,
            name_ja=ja,
            user=member if handle == "aki" else None,
        )  # fmt: skip
        for handle, name, ja in PLAYERS
    }
    season = Season.objects.create(
        club=club,
        name="Autumn League 2026",
        games=list(LEAGUE_GAMES),
        starts_on=dt.date(2026, 10, 1),
        ends_on=dt.date(2026, 12, 20),
        public=True,
    )
    nights = [
        ClubNight.objects.create(
            season=season, date=dt.date(2026, 10, d), venue="Kanda hall, room 2"
        )
        for d in (3, 17, 31)
    ]
    planned = [(game.name, demo) for game in LEAGUE_GAMES.values() for demo in game.demo_matches()]
    for game, demo in sorted(planned, key=lambda item: item[1].night):  # stable: registry order
        table = Table.objects.create(club_night=nights[demo.night], name=demo.table, scorer=scorer)
        match = actions.create_match(
            table, game, [players[h] for h in demo.players], rules=demo.rules, target=demo.target
        )
        for record in demo.deals:
            actions.enter_deal(match, record, user=scorer)
    return club
