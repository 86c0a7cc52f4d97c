"""The demo club: a season, ten players, two club nights and a match of each headline game.

Every deal goes through ``actions.enter_deal``, so the engine accepts each one
exactly as a scorer's entry would be accepted.  The Comp-13 and Packing matches
open with a deal logged move by move (a full play record).
"""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

import engine
from engine.cards import standard_deck
from engine.games import bhabhi, comrade, onetwothreefour, twentytwo
from engine.games.comp13_play import random_comp13_deal
from engine.games.packing_play import random_packing_deal
from tournaments import actions
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

RETTLER_DEALS: list[dict[str, Any]] = [
    {
        "declaration": {"player": "aki", "count": 28, "trump": "diamonds"},
        "adjutant_cards": ["SA"],
        "adjutants": ["chika", "dai"],
        "point_cards": {"aki": 16, "ben": 6, "chika": 10, "dai": 3, "emi": 1, "fumi": 2},
        "discarded_point_cards": 2,
    },
    {
        "declaration": {"player": "ben", "count": 30, "trump": "black"},
        "adjutant_cards": ["HJ", "CA"],
        "adjutants": ["emi"],
        "point_cards": {"aki": 5, "ben": 14, "chika": 6, "dai": 4, "emi": 9, "fumi": 2},
    },
    {
        "declaration": {"player": "fumi", "count": 25, "trump": "spades"},
        "adjutant_cards": ["SA"],
        "adjutants": ["aki", "ben"],
        "point_cards": {"aki": 8, "ben": 7, "chika": 5, "dai": 4, "emi": 3, "fumi": 12},
        "discarded_point_cards": 1,
    },
]

NAPOLEON_DEALS: list[dict[str, Any]] = [
    {
        "declaration": {"player": "gen", "count": 15, "trump": "hearts"},
        "adjutant_cards": ["SA"],
        "adjutants": ["ito"],
        "point_cards": {"gen": 9, "hana": 3, "ito": 7, "jun": 1},
    },
    {
        "declaration": {"player": "hana", "count": 16, "trump": "spades"},
        "adjutant_cards": ["HK"],
        "adjutants": [],
        "point_cards": {"gen": 3, "hana": 12, "ito": 2, "jun": 2},
        "discarded_point_cards": 1,
    },
    {
        "declaration": {"player": "jun", "count": 14, "trump": "notrump"},
        "adjutant_cards": ["JK"],
        "adjutants": ["gen"],
        "point_cards": {"gen": 6, "hana": 4, "ito": 2, "jun": 8},
    },
]

COMP13_DEALS: list[dict[str, Any]] = [
    {
        "captured": {
            "aki": ["SK", "HK", "DK", "CK", "SA"],
            "ben": ["HA", "D10", "JK"],
            "chika": ["SQ", "HQ"],
            "dai": ["CA", "S10"],
        },
        "hand_faces": {"aki": [], "ben": [], "chika": ["CQ"], "dai": ["DJ"]},
    },
    {
        "captured": {
            "aki": ["S10", "H10"],
            "ben": ["SJ", "HJ", "DJ", "CJ", "DA"],
            "chika": ["SK", "JK", "HA"],
            "dai": ["DQ", "CQ", "C10"],
        },
        "hand_faces": {"aki": ["SA", "HK"], "ben": [], "chika": [], "dai": ["CK"]},
    },
    {
        "captured": {
            "aki": ["SQ", "HQ", "DQ", "CQ"],
            "ben": ["SA"],
            "chika": ["HK", "DK", "D10"],
            "dai": ["JK", "CA", "H10", "S10"],
        },
        "hand_faces": {"aki": ["HA"], "ben": ["SJ", "CK"], "chika": [], "dai": []},
    },
    {
        "captured": {
            "aki": ["CK"],
            "ben": ["HA", "SA", "H10"],
            "chika": ["SJ", "DJ"],
            "dai": ["SK", "HK", "DA"],
        },
        "hand_faces": {"aki": ["JK", "CJ"], "ben": [], "chika": ["HQ"], "dai": ["C10"]},
    },
]

# Partners sit alternately: emi and gen against fumi and hana.
PACKING_DEALS: list[dict[str, Any]] = [
    {
        "packs": {
            "emi": [["HA", "H5", "H3"], ["S10", "S2"], ["DK", "D9", "D4"]],
            "fumi": [["HJ", "H7"], ["CQ", "C8", "C6"], ["CK", "C9"]],
            "gen": [["SA", "SK", "S5"], ["DA", "D3"]],
            "hana": [["DQ", "D10"], ["SJ", "S4"], ["CA", "C3"]],
        }
    },
    {
        "packs": {
            "emi": [["SA", "S9", "S4"], ["HQ", "H8"], ["CA", "C5", "C4"]],
            "fumi": [["DA", "D7"], ["SK", "S3"]],
            "gen": [["DK", "DQ", "D2"], ["CK", "C10", "C2"], ["HA", "H6"], ["SQ", "S8"]],
            "hana": [["C9", "C7"], ["D10", "D5"], ["DJ", "D4"]],
        }
    },
    {
        "packs": {
            "emi": [["HA", "HK", "H9"], ["DA", "D8"], ["SA", "SQ"]],
            "fumi": [["CJ", "C4"], ["HQ", "H3"], ["CA", "C9", "C2"]],
            "gen": [["CK", "C5"], ["DK", "D5"], ["SK", "S10", "S6"], ["HA", "H4"]],
            "hana": [["D9", "D2"], ["SJ", "S7"], ["SA", "S3"]],
        }
    },
    {
        "packs": {
            "emi": [["HA", "HK", "HQ"], ["DA", "DK"], ["SQ", "S9"]],
            "fumi": [["C8", "C4"], ["H10", "H2"]],
            "gen": [["CA", "CK", "C5"], ["SA", "SK", "S6"], ["DQ", "D7"], ["HJ", "H4"]],
            "hana": [["D9", "D3"]],
        }
    },
]


def full_play_deals(game: str, seated: list[str]) -> list[dict[str, Any]]:
    """The first deal of the Comp-13 and Packing matches as a complete play log.

    Made by the engine's own simulation with a fixed seed, so it is the same legal
    deal on every machine.
    """
    rng = random.Random(2026)
    if game == "comp13":
        record = random_comp13_deal(seated, standard_deck(jokers=1), rng, jokers=1)
    elif game == "packing":
        packing = engine.GAMES["packing"]
        record = random_packing_deal(seated, packing.deck(len(seated)), rng, packing.sides(seated))
    else:
        return []
    for key in ("game", "players", "rules", "teams"):  # the match supplies these
        record.pop(key, None)
    return [record]


def rulebook_game_deals(
    game: str, seated: list[str]
) -> tuple[dict[str, Any], int | None, list[dict[str, Any]]]:
    """(rules, target, deals) of the demo's Twenty-Two, 1234, Bhabhi and Comrade matches.

    Every deal is played by the engine's random legal play with a fixed seed; the
    first is kept as a full play log, the others as the summaries a table logs.
    """
    rng = random.Random(2028 if game == "bhabhi" else 2026)  # 2028: three different bhabhis
    rules: dict[str, Any] = {}
    target: int | None = None
    if game == "twentytwo":
        deals = twentytwo.random_match(rng, seated)["deals"]
    elif game == "1234":
        rules, target = {"scoring": "chips", "limit": 100}, 3
        deals, dealer = [], seated[-1]
        for _ in range(target):
            deals.append(onetwothreefour.random_deal(rng, seated, dealer))
            dealer = engine.check({**deals[-1], "rules": rules}).details["winner"]
    elif game == "bhabhi":
        target = 3
        deals = [bhabhi.random_deal(rng, seated) for _ in range(target)]
    else:
        deals = [comrade.random_deal(rng, seated, seated[0])]
        deals += [COMRADE_WON[i] for i in range(len(seated) - 1)]
        return rules, target, [_strip(d) for d in deals]
    deals = [deals[0], *(engine.summarize({**d, "rules": rules}) for d in deals[1:])]
    return rules, target, [_strip(d) for d in deals]


def _strip(record: dict[str, Any]) -> dict[str, Any]:
    """Leave out what the match supplies."""
    return {k: v for k, v in record.items() if k not in ("game", "players", "rules")}


COMRADE_WON = [
    {"dealer": "hana", "bids": {"ito": {"spades": 4, "clubs": 1}, "gen": {"hearts": 4}, "hana": {"diamonds": 3}},
     "tricks_won": {"ito": {"spades": 4, "clubs": 1}, "gen": {"hearts": 4}, "hana": {"diamonds": 3}}},
    {"dealer": "ito", "bids": {"gen": {"clubs": 4}, "hana": {"spades": 3, "hearts": 2}, "ito": {"diamonds": 3}},
     "tricks_won": {"gen": {"clubs": 3}, "hana": {"spades": 3, "hearts": 2}, "ito": {"diamonds": 3, "clubs": 1}}},
]  # fmt: skip
"""Comrade games two and three, as summaries: one won, one lost (a trick of an unbid suit)."""


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
        games=[
            "rettler",
            "napoleon",
            "comp13",
            "packing",
            "twentytwo",
            "1234",
            "bhabhi",
            "comrade",
        ],
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
    plan = [
        (
            nights[0],
            "Table 1",
            "rettler",
            ["aki", "ben", "chika", "dai", "emi", "fumi"],
            {},
            RETTLER_DEALS,
        ),
        (nights[0], "Table 2", "napoleon", ["gen", "hana", "ito", "jun"], {}, NAPOLEON_DEALS),
        (
            nights[1],
            "Table 1",
            "comp13",
            ["aki", "ben", "chika", "dai"],
            {"jokers": 1},
            COMP13_DEALS,
        ),
        (nights[1], "Table 2", "packing", ["emi", "fumi", "gen", "hana"], {}, PACKING_DEALS),
    ]
    for night, table_name, game, seated, rules, deals in plan:
        table = Table.objects.create(club_night=night, name=table_name, scorer=scorer)
        match = actions.create_match(table, game, [players[h] for h in seated], rules=rules)
        for record in [*full_play_deals(game, seated), *deals]:
            actions.enter_deal(match, record, user=scorer)
    rulebook_games = [
        ("Table 1", "twentytwo", ["aki", "ben", "chika", "dai"]),
        ("Table 2", "1234", ["emi", "fumi", "jun"]),
        ("Table 3", "bhabhi", ["aki", "ben", "chika", "dai", "emi"]),
        ("Table 4", "comrade", ["gen", "hana", "ito"]),
    ]
    for table_name, game, seated in rulebook_games:
        table = Table.objects.create(club_night=nights[2], name=table_name, scorer=scorer)
        rules, target, deals = rulebook_game_deals(game, seated)
        match = actions.create_match(
            table, game, [players[h] for h in seated], rules=rules, target=target
        )
        for record in deals:
            actions.enter_deal(match, record, user=scorer)
    return club
