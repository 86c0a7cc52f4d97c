"""The world the access table is checked in: two clubs, each role's client, and the URL
of every route of ``web.routes`` filled with the ids of club A's private objects.

- **Club A** ("Kanda"): a public season with a played match, and a private season
  ("Secret Winter League") whose night is tonight, in one round, with a table whose
  scorer and link holder are known, a match seating "Hidden Hiro" (a player seen nowhere
  public), a confirmed deal and a pending one, two divisions, a PIN, an invitation, an
  uploaded sheet.
- **Club B** ("Rival"): its own administrator and a private season with "Rival Rika".
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

import actions.deals
import actions.divisions
import actions.matches
from actions import invitations, pins, rounds
from actions import table_links as link_actions
from scoring.models import Export
from tournaments.models import (
    Club,
    ClubNight,
    Deal,
    Invitation,
    Match,
    Membership,
    Player,
    Season,
    SheetUpload,
    Table,
)
from web.routes import Role

SESSION = settings.SESSION_COOKIE_NAME
SECRETS_OF_A = ("Secret Winter League", "Hidden Hiro", "priv-scorer-7f3")
SECRETS_OF_B = ("Rival Secret Season", "Rival Rika", "rival-admin-9c")

NAPOLEON = {
    "declaration": {"player": "hiro", "count": 15, "trump": "hearts"},
    "adjutant_cards": ["SA"],
    "adjutants": ["hana"],
    "point_cards": {"hiro": 9, "gen": 3, "hana": 7, "ito": 1},
}


@dataclass
class World:
    club: Club
    rival: Club
    public_season: Season
    season: Season
    night: ClubNight
    table: Table
    match: Match
    deal: Deal
    pending: Deal
    hiro: Player
    member_player: Player
    invitation: Invitation
    upload: SheetUpload
    export: Export
    users: dict[Role, User | None] = field(default_factory=dict)
    signed_in: dict[Role, tuple[dict[str, Any], dict[str, str]]] = field(
        default_factory=dict, init=False, repr=False
    )
    """What signing in (or following the table's link) left in a role's first client: its
    session's data and its cookies."""

    def client(self, role: Role) -> Client:
        """A fresh client acting as ``role`` (the link holder followed the table's link).

        The first signs in; each later one starts with its own cookies and a session of its
        own holding the same data (one row written, where signing in again would write
        several and send its signals: the access table asks for thousands of clients)."""
        client = Client()
        kept = self.signed_in.get(role)
        if kept is None:
            user = self.users.get(role)
            if user is not None:
                client.force_login(user)
            if role is Role.LINK:
                client.get(f"/t/{self.table.link_token}/")
            cookies = {name: morsel.value for name, morsel in client.cookies.items()}
            data = dict(client.session.items()) if SESSION in cookies else {}
            self.signed_in[role] = (data, cookies)
            return client
        data, cookies = kept
        for name, value in cookies.items():
            client.cookies[name] = value
        if data:
            session = import_module(settings.SESSION_ENGINE).SessionStore()
            session.update(data)
            session.create()
            client.cookies[SESSION] = session.session_key
        return client

    def kwargs(self, names: list[str], obj: str) -> dict[str, Any]:
        """The URL arguments of a route whose ``pk`` names an ``obj`` of club A."""
        ids = {
            "season": self.season.pk,
            "night": self.night.pk,
            "table": self.table.pk,
            "match": self.match.pk,
            "deal": self.pending.pk,
            "player": self.hiro.pk,
            "own_player": self.member_player.pk,
            "membership": Membership.objects.get(club=self.club, role="member").pk,
            "invitation": self.invitation.pk,
            "upload": self.upload.pk,
            "export": self.export.pk,
            "join": 0,
            "club": self.club.pk,
            "": 0,
        }
        values = {
            "pk": ids[obj],
            "slug": self.club.slug,
            "fmt": "csv",
            "game": "napoleon",
            "language": "en",
            "token": {"join": self.invitation.token}.get(obj, self.table.link_token),
            "uidb64": "MQ",
            "format": "json",
            "kind": "backup",
            "example": "-example",  # a template's optional part: the same view and right
        }
        return {name: values[name] for name in names}


def build() -> World:
    club = Club.objects.create(name="Kanda Card Club", slug="kanda")
    rival = Club.objects.create(name="Rival Club", slug="rival")

    def account(name: str, club_: Club | None = None, role: str = "", **extra: Any) -> User:
        user = User.objects.create_user(name, password=f"{name}-pass-2026", **extra)
        if club_ is not None:
            Membership.objects.create(club=club_, user=user, role=role)
        return user

    users: dict[Role, User | None] = {
        Role.ANONYMOUS: None,
        Role.LINK: None,
        Role.STRANGER: account("stranger"),
        Role.MEMBER: account("member", club, "member"),
        Role.SCORER: account("priv-scorer-7f3", club, "scorer"),
        Role.ADMIN: account("kanda-admin", club, "admin"),
        Role.OTHER_ADMIN: account("rival-admin-9c", rival, "admin"),
        Role.OPERATOR: account("operator", is_staff=True, is_superuser=True),
    }
    handles = ["aki", "ben", "gen", "hana", "ito"]
    people = {
        h: Player.objects.create(club=club, handle=h, display_name=h.title()) for h in handles
    }
    hiro = Player.objects.create(club=club, handle="hiro", display_name="Hidden Hiro")
    people["gen"].user = users[Role.MEMBER]
    people["gen"].save()
    pins.set_pin(people["gen"], "2468")

    public_season = Season.objects.create(
        club=club, name="Open League", games=["napoleon"], public=True
    )
    open_night = ClubNight.objects.create(season=public_season, date=dt.date(2026, 11, 7))
    open_table = Table.objects.create(club_night=open_night, name="Table 1")
    open_match = actions.matches.create_match(
        open_table, "napoleon", [people[h] for h in ("aki", "ben", "gen", "hana")]
    )
    actions.deals.enter_deal(
        open_match,
        {
            **NAPOLEON,
            "declaration": {"player": "aki", "count": 15, "trump": "hearts"},
            "point_cards": {"aki": 9, "ben": 3, "gen": 7, "hana": 1},
        },
    ).stored()

    season = Season.objects.create(
        club=club, name="Secret Winter League", games=["napoleon"], require_confirmation=True
    )
    night = ClubNight.objects.create(season=season, date=timezone.localdate(), venue="Back room")
    round_ = rounds.seat(
        night,
        rounds.Proposal(
            1,
            "napoleon",
            "balanced",
            None,
            rounds.Seating(
                [[hiro.pk, people["gen"].pk, people["hana"].pk, people["ito"].pk]],
                [people["aki"].pk],
            ),
        ),
        users[Role.ADMIN],
    )
    table = round_.tables.get()
    table.scorer = users[Role.SCORER]
    table.save()
    link_actions.ensure(table)
    match = table.matches.get()
    deal = actions.deals.enter_deal(match, NAPOLEON, user=users[Role.SCORER]).stored()
    actions.deals.confirm_deal(deal, users[Role.ADMIN])
    pending = actions.deals.enter_deal(match, NAPOLEON, user=users[Role.SCORER]).stored()
    # In two divisions: the divisions and close pages show their lists (issue 40).
    placed = {hiro.pk: "A", people["gen"].pk: "A", people["hana"].pk: "B", people["ito"].pk: "B"}
    actions.divisions.set_divisions(season, ["A", "B"], placed)

    rival_season = Season.objects.create(club=rival, name="Rival Secret Season", games=["napoleon"])
    rika = Player.objects.create(club=rival, handle="rika", display_name="Rival Rika")
    rival_night = ClubNight.objects.create(season=rival_season, date=dt.date(2026, 11, 8))
    rival_table = Table.objects.create(club_night=rival_night, name="Table 1")
    others = [
        Player.objects.create(club=rival, handle=f"r{i}", display_name=f"R{i}") for i in range(3)
    ]
    actions.matches.create_match(rival_table, "napoleon", [rika, *others])

    invitation = invitations.invite(club, users[Role.ADMIN], "member")
    upload = SheetUpload.objects.create(club=club, name="old-sheet.csv", data=b"")
    export = Export.objects.create(  # a backup made: PIN hashes and all, for its admins alone
        club=club,
        kind="backup",
        status=Export.Status.DONE,
        name="kanda.json",
        content_type="application/json",
        data=b'{"secret": "Secret Winter League"}',
    )
    return World(
        club=club,
        rival=rival,
        public_season=public_season,
        season=season,
        night=night,
        table=table,
        match=match,
        deal=deal,
        pending=pending,
        hiro=hiro,
        member_player=people["gen"],
        invitation=invitation,
        upload=upload,
        export=export,
        users=users,
    )
