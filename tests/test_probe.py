"""The security probe (issue 24): what an anonymous reader, a stranger, a hostile member,
another club's league administrator and a guesser try against one club, each request
counted.  It prints one line for docs/security.md (``make test PYTEST_ARGS="-k probe -s"``):

    probe: N requests tried, 0 answered 5xx, 0 leaks, 0 data lost

- **5xx**: any answer of 500 or more.
- **leaks**: a private season, its players, its numbers (a rating counting its deals) or
  an account's name or id reaching someone who may not read them; a password accepted
  after wrong guesses; a file of the server inside a PDF.
- **data lost**: a change answered 2xx and not stored, a refused change stored anyway, a
  change by someone not allowed to make it, a confirmed result changed without a new
  confirmation.
"""

from __future__ import annotations

import base64
import datetime as dt
import io
import json
import zipfile

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

import actions.deals
import actions.matches
from scoring.models import Rating
from tests import worlds
from tournaments.models import (
    Club,
    ClubNight,
    Deal,
    DealVersion,
    Match,
    Membership,
    Player,
    Season,
    Table,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

SECRET_SEASON = "Secret Winter League"
SECRET_PLAYER = "Hidden Hiro"
SECRET_ACCOUNT = "priv-scorer-7f3"
MARKUP = '<img src="/etc/hostname" width="300" height="300"/>'


class Probe:
    def __init__(self) -> None:
        self.tried = 0
        self.errors: list[str] = []
        self.leaks: list[str] = []
        self.lost: list[str] = []

    def call(self, client, method: str, url: str, *, body=None, raw=None, format="json", **extra):  # noqa: A002 - DRF's word
        self.tried += 1
        send = getattr(client, method.lower())
        if raw is not None:
            response = send(url, raw, content_type="application/json", **extra)
        elif body is not None:
            response = (
                send(url, body, format=format, **extra)
                if isinstance(client, APIClient)
                else send(url, body, **extra)
            )
        else:
            response = send(url, **extra)
        if response.status_code >= 500:
            self.errors.append(f"{method} {url}: {response.status_code}")
        return response

    def text(self, response) -> str:
        if getattr(response, "streaming", False):
            return b"".join(response.streaming_content).decode("utf-8", "replace")
        return response.content.decode("utf-8", "replace")

    def summary(self) -> str:
        return (
            f"probe: {self.tried} requests tried, {len(self.errors)} answered 5xx, "
            f"{len(self.leaks)} leaks, {len(self.lost)} data lost"
        )


@pytest.fixture
def world(django_capture_on_commit_callbacks):
    """The demo club (a public season), a private season of it with a player and a scorer
    seen nowhere else, another club with its own league administrator, and a stranger."""
    with django_capture_on_commit_callbacks(execute=True):
        worlds.demo(scored=True)
    club = Club.objects.get(slug="kanda")
    hidden_scorer = User.objects.create_user(SECRET_ACCOUNT, password="hidden-pass-2026")
    Membership.objects.create(club=club, user=hidden_scorer, role="scorer")
    hiro = Player.objects.create(club=club, handle="hiro", display_name=SECRET_PLAYER)
    private = Season.objects.create(
        club=club, name=SECRET_SEASON, games=["napoleon"], require_confirmation=True
    )
    night = ClubNight.objects.create(season=private, date=dt.date(2026, 12, 1), venue="Back room")
    table = Table.objects.create(club_night=night, name="Table 9", scorer=hidden_scorer)
    seated = [hiro, *Player.objects.filter(club=club, handle__in=["gen", "hana", "ito"])]
    match = actions.matches.create_match(table, "napoleon", seated)
    admin = User.objects.get(username="admin")
    record = {
        "declaration": {"player": "hiro", "count": 15, "trump": "hearts"},
        "adjutant_cards": ["SA"],
        "adjutants": ["hana"],
        "point_cards": {"hiro": 9, "gen": 3, "hana": 7, "ito": 1},
    }
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            deal = actions.deals.enter_deal(match, record, user=hidden_scorer).stored()
            actions.deals.confirm_deal(deal, admin)
    rival = Club.objects.create(name="Rival Club", slug="rival")
    rival_admin = User.objects.create_user("rival-admin", password="rival-pass-2026")
    Membership.objects.create(club=rival, user=rival_admin, role="admin")
    stranger = User.objects.create_user("stranger", password="stranger-pass-2026")
    return {
        "club": club,
        "private": private,
        "private_match": match,
        "rival_admin": rival_admin,
        "stranger": stranger,
        "hidden": hidden_scorer,
        "admin": admin,
    }


def readers(world):
    anonymous = (APIClient(), Client())
    out = {"anonymous": anonymous}
    for name in ("stranger", "rival_admin"):
        api, page = APIClient(), Client()
        api.force_authenticate(world[name])
        page.force_login(world[name])
        out[name] = (api, page)
    return out


def public_urls(world) -> tuple[list[str], list[str]]:
    season = Season.objects.get(name="Autumn League 2026")
    api = [
        "/api/clubs/",
        "/api/players/",
        "/api/seasons/",
        "/api/club-nights/",
        "/api/tables/",
        "/api/matches/",
        "/api/deals/",
        f"/api/standings/?season={season.pk}",
        f"/api/standings/?season={season.pk}&order=rating",
    ]
    pages = [
        "/",
        f"/seasons/{season.pk}/",
        f"/seasons/{season.pk}/?sort=rating",
        f"/seasons/{season.pk}/standings.csv",
        f"/seasons/{season.pk}/standings.xlsx",
    ]
    for match in Match.objects.filter(table__club_night__season=season):
        pages += [
            f"/matches/{match.pk}/",
            f"/matches/{match.pk}/sheet.csv",
            f"/nights/{match.table.club_night_id}/",
        ]
        api += [f"/api/matches/{match.pk}/", f"/api/matches/{match.pk}/deals/"]
    for player in Player.objects.filter(seats__match__table__club_night__season=season).distinct():
        pages.append(f"/players/{player.pk}/")
        api.append(f"/api/players/{player.pk}/")
    return api, pages


def private_urls(world) -> list[str]:
    private, match = world["private"], world["private_match"]
    deal = match.deals.first()
    hiro = Player.objects.get(handle="hiro")
    return [
        f"/seasons/{private.pk}/",
        f"/seasons/{private.pk}/standings.csv",
        f"/seasons/{private.pk}/standings.pdf",
        f"/nights/{match.table.club_night_id}/",
        f"/matches/{match.pk}/",
        f"/matches/{match.pk}/sheet.pdf",
        f"/players/{hiro.pk}/",
        f"/api/seasons/{private.pk}/",
        f"/api/standings/?season={private.pk}",
        f"/api/matches/{match.pk}/",
        f"/api/deals/{deal.pk}/",
        f"/api/deals/{deal.pk}/history/",
        f"/api/players/{hiro.pk}/",
        f"/api/tables/{match.table_id}/",
    ]


def test_the_probe(world, settings):
    probe = Probe()
    settings.AXES_FAILURE_LIMIT = 5
    secrets = [SECRET_SEASON, SECRET_PLAYER, SECRET_ACCOUNT, "rival-admin"]
    api_urls, page_urls = public_urls(world)
    napoleon = Rating.objects.filter(game="napoleon")
    public_ratings = {r.player_id: f"{r.rating:.1f}" for r in napoleon.filter(scope="public")}
    club_ratings = {r.player_id: f"{r.rating:.1f}" for r in napoleon.filter(scope="club")}
    gen = Player.objects.get(handle="gen")
    assert public_ratings[gen.pk] != club_ratings[gen.pk]  # the private deals moved Gen's

    # 1. Reading: nothing private, no account, no rating made of private deals.
    for who, (api, page) in readers(world).items():
        for url in api_urls + page_urls:
            client = api if url.startswith("/api/") else page
            text = probe.text(probe.call(client, "GET", url))
            for secret in secrets:
                if secret in text and not (who == "rival_admin" and secret == "rival-admin"):
                    probe.leaks.append(f"{who} {url}: {secret}")
            if url.startswith("/api/") and any(
                f'"{key}":' in text for key in ("user", "scorer", "entered_by", "confirmed_by")
            ):
                probe.leaks.append(f"{who} {url}: an account field")
        answer = probe.call(
            api,
            "GET",
            f"/api/standings/?season={Season.objects.get(name='Autumn League 2026').pk}&order=rating",
        )
        shown = {
            row["player"]: row["rating"]
            for row in answer.json()["results"]
            if row["game"] == "napoleon"
        }
        if f"{shown[gen.pk]:.1f}" != public_ratings[gen.pk]:
            probe.leaks.append(f"{who}: Gen's rating counts the private season")
        for url in private_urls(world):
            client = api if url.startswith("/api/") else page
            if probe.call(client, "GET", url).status_code not in (403, 404):
                probe.leaks.append(f"{who} read {url}")

    # 2. Changing what is not yours: the stranger, another club's administrator, a member.
    deal = Deal.objects.filter(match__table__club_night__season__name="Autumn League 2026").first()
    member = APIClient()
    member.force_authenticate(User.objects.get(username="member"))
    hostile = {name: pair[0] for name, pair in readers(world).items() if name != "anonymous"}
    hostile["member"] = member
    before = json.dumps(deal.record, sort_keys=True)
    player = Player.objects.get(handle="aki")
    for who, api in hostile.items():
        tries = [
            ("PUT", f"/api/deals/{deal.pk}/", {"record": deal.record, "reason": "mine now"}),
            ("DELETE", f"/api/deals/{deal.pk}/?reason=gone", None),
            ("POST", f"/api/deals/{deal.pk}/restore/", {"reason": "x"}),
            ("POST", f"/api/matches/{deal.match_id}/reopen/", None),
            ("PATCH", f"/api/players/{player.pk}/", {"user": world["rival_admin"].pk}),
            ("PATCH", f"/api/seasons/{world['private'].pk}/", {"public": True}),
            (
                "POST",
                "/api/matches/",
                {"table": deal.match.table_id, "game": "napoleon", "players": [player.pk]},
            ),
            ("POST", f"/api/matches/{deal.match_id}/deals/", {"record": deal.record}),
        ]
        for method, url, body in tries:
            code = probe.call(api, method, url, body=body).status_code
            if code < 400:
                probe.lost.append(f"{who} {method} {url}: {code}")
    if json.dumps(Deal.objects.get(pk=deal.pk).record, sort_keys=True) != before:
        probe.lost.append("a stranger's change was stored")
    if (
        Player.objects.get(pk=player.pk).user_id == world["rival_admin"].pk
        or Season.objects.get(pk=world["private"].pk).public
    ):
        probe.lost.append("another club's administrator changed the club")

    # 3. Guessing a password, on every page that takes one and through the API.
    for url in ("/accounts/login/", "/admin/login/", "/api-auth/login/"):
        guesser = Client()
        for i in range(7):
            probe.call(guesser, "POST", url, body={"username": "scorer", "password": f"guess-{i}"})
        probe.call(
            guesser, "POST", url, body={"username": "scorer", "password": "demo-scorer-2026"}
        )
        if "_auth_user_id" in guesser.session:
            probe.leaks.append(f"{url}: the password was guessed after 7 tries")
    basic = APIClient()
    for password in [f"guess-{i}" for i in range(7)] + ["demo-scorer-2026"]:
        basic.credentials(
            HTTP_AUTHORIZATION="Basic " + base64.b64encode(f"admin:{password}".encode()).decode()
        )
        if probe.call(basic, "GET", f"/api/deals/{deal.pk}/history/").status_code == 200:
            probe.leaks.append("HTTP Basic accepted a password")

    # 4. A scorer at the table sends what a phone or a hand-edited page can send.
    scorer = APIClient()
    scorer.credentials(
        HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=User.objects.get(username='scorer')).key}"
    )
    match = Match.objects.filter(
        game="napoleon", table__club_night__season__name="Autumn League 2026"
    ).earliest("pk")
    good = {
        "declaration": {"player": "gen", "count": 15, "trump": "♡"},
        "adjutant_cards": ["♠A"],
        "adjutants": ["ito"],
        "point_cards": {"gen": 9, "hana": 3, "ito": 7, "jun": 1},
    }
    bodies = [
        None,
        [],
        "x",
        {"record": None},
        {"record": []},
        {"record": {"point_cards": "x" * 100000}},
        {"record": good, "number": "1e400"},
        {"record": good, "number": -1},
        {"record": {**good, "declaration": {"player": "gen", "count": 10**30, "trump": "hearts"}}},
        {"record": {**good, "adjutant_cards": [["SA"]]}},
        {"record": {**good, "extra": "\x00"}},
        {"record": {"a": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}},
    ]
    for body in bodies:
        stored = match.deals.count()
        code = probe.call(
            scorer, "POST", f"/api/matches/{match.pk}/deals/", raw=json.dumps(body)
        ).status_code
        if (code < 300) != (match.deals.count() == stored + 1):
            probe.lost.append(
                f"POST {body!r:.60}: answered {code}, stored {match.deals.count() - stored}"
            )
    for raw in ('{"record": {"a": 1', '{"record": NaN}', "\x00", '{"number": 1}' * 3):
        probe.call(scorer, "POST", f"/api/matches/{match.pk}/deals/", raw=raw)
    good["declaration"]["trump"] = "hearts"
    key = {"HTTP_IDEMPOTENCY_KEY": "probe-1"}
    stored = match.deals.count()
    answers = [
        probe.call(
            scorer, "POST", f"/api/matches/{match.pk}/deals/", body={"record": good}, **key
        ).status_code
        for _ in range(3)
    ]
    if answers != [201, 201, 201] or match.deals.count() != stored + 1:
        probe.lost.append(f"a retried entry: {answers}, {match.deals.count() - stored} stored")
    last = match.deals.order_by("-number").first()
    if last.record["adjutant_cards"] != ["SA"]:
        probe.lost.append("cards typed with symbols stored as typed")

    # 5. A confirmed result changed: it waits for a second person.
    private_deal = world["private_match"].deals.order_by("number").first()
    hidden = APIClient()
    hidden.force_authenticate(world["hidden"])
    changed = dict(private_deal.record, point_cards={"hiro": 5, "gen": 6, "hana": 4, "ito": 5})
    probe.call(
        hidden, "PUT", f"/api/deals/{private_deal.pk}/", body={"record": changed, "reason": "oops"}
    )
    if Deal.objects.get(pk=private_deal.pk).confirmed_at is not None:
        probe.lost.append("a confirmed result changed unseen")
    if probe.call(hidden, "POST", f"/api/deals/{private_deal.pk}/confirm/").status_code < 400:
        probe.lost.append("the one who changed a result confirmed it")
    if DealVersion.objects.filter(deal=private_deal).count() != 1:
        probe.lost.append("the change is not in the history")

    # 6. Names written in PDF markup.
    ClubNight.objects.update(venue=MARKUP)
    Player.objects.filter(handle="aki").update(display_name="<img src=x onerror=alert(1)>")
    season = Season.objects.get(name="Autumn League 2026")
    for url in [f"/seasons/{season.pk}/standings.pdf", "/sheets/blank-napoleon.pdf"] + [
        f"/matches/{m.pk}/{kind}"
        for m in season.club_nights.exclude(tables=None).first().tables.first().matches.all()
        for kind in ("sheet.pdf", "paper.pdf")
    ]:
        pdf = probe.call(Client(), "GET", url).content
        if b"/Subtype /Image" in pdf or b"/Subtype/Image" in pdf:
            probe.leaks.append(f"{url}: an image in the PDF")

    # 7. A careless club and a hostile administrator (issue 28): renames, hostile files,
    # repeated clicks, over-long values, the last administrator, forged forms.
    admin_api = APIClient()
    admin_api.force_authenticate(world["admin"])
    admin_page = Client()
    admin_page.force_login(world["admin"])
    aki = Player.objects.get(handle="aki")
    if (
        probe.call(
            admin_api, "PATCH", f"/api/players/{aki.pk}/", body={"handle": "ben"}
        ).status_code
        < 400
    ):
        probe.lost.append("two players given one handle")
    probe.call(admin_api, "PATCH", f"/api/players/{aki.pk}/", body={"handle": "aki-renamed"})
    if Deal.objects.filter(record__players__contains=["aki"]).exists():
        probe.lost.append("a rename left records naming the old handle")
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as book:
        book.writestr("[Content_Types].xml", "<Types/>")
        book.writestr(
            "xl/sharedStrings.xml", b"<sst>" + b"<si><t>x</t></si>" * 2_000_000 + b"</sst>"
        )
    upload = SimpleUploadedFile("bomb.xlsx", bomb.getvalue())
    if (
        probe.call(
            admin_api,
            "POST",
            "/api/clubs/kanda/score-sheets/",
            body={"file": upload},
            format="multipart",
        ).status_code
        != 400
    ):
        probe.lost.append("a zip bomb was not refused")
    target = Deal.objects.filter(
        deleted_at__isnull=True,
        match__table__club_night__season__name="Autumn League 2026",
        match__status="open",
    ).first()
    probe.call(admin_api, "DELETE", f"/api/deals/{target.pk}/?reason={'x' * 5000}")
    if Deal.objects.get(pk=target.pk).deleted_at is not None:
        probe.lost.append("a deal deleted with a reason too long to keep")
    probe.call(
        admin_api,
        "POST",
        "/api/seasons/",
        body={"club": world["club"].pk, "name": "AUTUMN LEAGUE 2026", "games": ["napoleon"]},
    )
    if Season.objects.filter(club=world["club"], name__iexact="autumn league 2026").count() != 1:
        probe.lost.append("two seasons of one name")
    mine = Membership.objects.get(user=world["admin"], club=world["club"])
    probe.call(
        admin_page, "POST", "/clubs/kanda/members/", body={"membership": mine.pk, "role": "member"}
    )
    probe.call(
        admin_page,
        "POST",
        "/clubs/kanda/members/",
        body={"member-username": "admin", "member-role": "member"},
    )
    if not Membership.objects.filter(club=world["club"], role="admin").exists():
        probe.lost.append("the club lost its last league administrator")
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(world["admin"])
    for method, url, body in (
        ("POST", f"/matches/{match.pk}/enter/", {"csrfmiddlewaretoken": "forged"}),
        ("GET", f"/deals/{target.pk}/confirm/", None),
        ("POST", f"/matches/{match.pk}/enter/", {"full_record": "x" * (2 * 1024 * 1024)}),
    ):
        if probe.call(forged, method, url, body=body).status_code not in (400, 403, 405):
            probe.lost.append(f"{method} {url} was taken")

    print("\n" + probe.summary())
    assert (probe.errors, probe.leaks, probe.lost) == ([], [], []), probe.summary()
    assert probe.tried > 300
