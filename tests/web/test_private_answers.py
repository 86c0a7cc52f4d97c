"""What browsers and proxies may keep (``web.caching``): every answer that depended on who
reads it is ``Cache-Control: private, no-store`` (a private season's pages and downloads,
a member's and an administrator's pages, a club's backup, whatever a table's link or an
API token opens); a public season's answers to an anonymous reader keep their caching;
every way of signing out (the site's, the Django admin's, the browsable API's) tells the
browser to drop its copy of the site."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import URLResolver, get_resolver, reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from actions import invitations
from actions import table_links as link_actions
from tests.conftest import member_of
from tests.web.access_world import build
from tournaments.models import Membership
from web.routes import ROUTES, Role

pytestmark = pytest.mark.django_db


def directives(response) -> set[str]:
    return {d.strip() for d in response.get("Cache-Control", "").split(",") if d.strip()}


def is_private(response) -> bool:
    return {"private", "no-store"} <= directives(response)


def pages_of(match) -> list[str]:
    """A season's pages and downloads, through one of its matches."""
    night = match.table.club_night
    season = night.season
    player = match.seats.first().player
    return [
        "/",
        f"/seasons/{season.pk}/",
        f"/seasons/{season.pk}/standings.csv",
        f"/seasons/{season.pk}/statistics.xlsx",
        f"/nights/{night.pk}/",
        f"/nights/{night.pk}/standings.csv",
        f"/matches/{match.pk}/",
        f"/matches/{match.pk}/sheet.pdf",
        f"/players/{player.pk}/",
        f"/api/seasons/{season.pk}/",
        f"/api/matches/{match.pk}/",
    ]


def test_a_public_seasons_answers_to_an_anonymous_reader_keep_their_caching(match):
    season = match.table.club_night.season
    season.public = True
    season.save(update_fields=["public"])
    reader = Client()
    for url in pages_of(match):
        response = reader.get(url)
        assert response.status_code == 200, url
        assert "private" not in directives(response) and "no-store" not in directives(response), url


def test_a_private_seasons_answers_to_its_member_are_kept_by_nobody(match, member):
    reader = Client()
    reader.force_login(member)
    for url in pages_of(match):
        response = reader.get(url)
        assert response.status_code == 200, url
        assert is_private(response), url
    # A page that refuses is private too: what it refuses tells who reads.
    assert is_private(reader.get("/seasons/987654321/"))


def test_a_public_seasons_answers_to_a_signed_in_reader_are_private(match, django_user_model):
    """Signed in, the same public pages may show the reader's own clubs and rights."""
    season = match.table.club_night.season
    season.public = True
    season.save(update_fields=["public"])
    stranger = Client()
    stranger.force_login(django_user_model.objects.create_user("stranger", password="x-pass-1"))
    for url in pages_of(match):
        assert is_private(stranger.get(url)), url


def test_an_api_token_readers_answers_are_private(match, member):
    program = APIClient()
    program.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=member).key}")
    season = match.table.club_night.season
    for url in (f"/api/seasons/{season.pk}/", f"/api/matches/{match.pk}/deals/", "/api/players/"):
        response = program.get(url)
        assert response.status_code == 200, url
        assert is_private(response), url


def test_an_administrators_pages_and_the_clubs_backup_are_private(
    admin, match, django_capture_on_commit_callbacks
):
    club = match.table.club_night.season.club
    night = match.table.club_night
    for url in (f"/clubs/{club.slug}/setup/", f"/nights/{night.pk}/tables/"):
        response = admin.get(url)
        assert response.status_code == 200 and is_private(response), url
    with django_capture_on_commit_callbacks(execute=True):
        asked = admin.post(f"/clubs/{club.slug}/exports/backup/")
    assert is_private(asked)
    status = admin.get(asked["Location"])
    backup = admin.get(asked["Location"] + "file")
    assert status.status_code == 200 and is_private(status)
    assert backup.status_code == 200 and "attachment" in backup["Content-Disposition"]
    assert is_private(backup)


def test_a_table_links_phone_gets_private_answers_only(match):
    """An anonymous phone that followed a table's link: its session opens the table, so
    every answer to it is private, the public home page included."""
    phone = Client()
    followed = phone.get(f"/t/{link_actions.ensure(match.table)}/")
    assert followed.status_code == 302 and is_private(followed)
    for url in (f"/tables/{match.table.pk}/", f"/matches/{match.pk}/enter/", "/"):
        response = phone.get(url)
        assert response.status_code == 200, url
        assert is_private(response), url


def test_an_invitations_page_is_private_to_whoever_holds_its_link(club, django_user_model):
    made_by = member_of(club, django_user_model, "lena", Membership.Role.ADMIN)
    invitation = invitations.invite(club, made_by, Membership.Role.MEMBER)
    page = Client().get(f"/join/{invitation.token}/")
    assert page.status_code == 200 and club.name in page.content.decode()
    assert is_private(page)


def test_an_answer_that_did_not_ask_who_reads_is_left_alone(member, django_assert_num_queries):
    """The liveness check reads neither the session nor the account, even for a signed-in
    reader: no query, and nothing private in its answer."""
    reader = Client()
    reader.force_login(member)
    with django_assert_num_queries(0):
        response = reader.get("/healthz")
    assert response.status_code == 200 and "private" not in directives(response)
    assert "Cookie" not in response.get("Vary", "")


@pytest.mark.parametrize(
    "signing_out",
    ["/accounts/logout/", "/admin/logout/", "/api-auth/logout/"],
    ids=["site", "admin", "browsable API"],
)
def test_every_sign_out_tells_the_browser_to_drop_its_copy_of_the_site(signing_out, league_admin):
    browser = Client()
    browser.force_login(league_admin)
    assert "Clear-Site-Data" not in browser.get("/")
    assert is_private(browser.get("/admin/"))
    response = browser.post(signing_out)
    assert response.status_code in (200, 302)
    assert response["Clear-Site-Data"] == '"cache"'
    assert "_auth_user_id" not in browser.session


def test_a_sign_out_that_did_not_happen_clears_nothing(league_admin):
    """The admin's sign-out asked by a link (GET: 405) or with a forged form (CSRF: 403)
    signs nobody out and clears nothing."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(league_admin)
    for response in (browser.get("/admin/logout/"), browser.post("/admin/logout/")):
        assert response.status_code in (403, 405)
        assert "Clear-Site-Data" not in response
    assert "_auth_user_id" in browser.session


READER_FREE = {
    *("healthz", "readyz", "service_worker", "web_manifest", "favicon"),
    *("blank_sheet", "sheet_template"),
    "club_feed",  # the club's public nights: the same feed for everyone (docs/calendars.md)
}
"""Routes whose answer is the same whoever asks: they read neither account nor session."""
ASKING = (Role.STRANGER, Role.MEMBER, Role.ADMIN, Role.LINK)
"""Whom each route is asked as: refused (404), a reader, an administrator, a phone."""


def get_routes() -> dict[str, tuple[str, ...]]:
    """Every named route of the resolver but the admin's, with its URL arguments."""
    found: dict[str, tuple[str, ...]] = {}

    def walk(patterns: list[Any], namespace: str, args: tuple[str, ...]) -> None:
        for pattern in patterns:
            own = tuple(pattern.pattern.regex.groupindex)
            if isinstance(pattern, URLResolver):
                if pattern.namespace != "admin":
                    walk(pattern.url_patterns, pattern.namespace or namespace, args + own)
            elif pattern.name:
                name = f"{namespace}:{pattern.name}" if namespace else pattern.name
                found.setdefault(name, args + own)

    walk(get_resolver().url_patterns, "", ())
    return found


@pytest.mark.slow
def test_every_route_keeps_a_known_readers_answers_private(settings):
    """Every route that reads, asked by signed-in readers and by a table link's phone in
    the access table's world of two clubs: each answer, refusals included, is private."""
    settings.ALLOW_SIGN_UP = True
    world = build()
    kept: list[str] = []
    for name, args in sorted(get_routes().items()):
        if "GET" not in ROUTES[name].methods or name in READER_FREE:
            continue
        url = reverse(name, kwargs=world.kwargs(list(args), ROUTES[name].obj))
        if name == "standings":
            url += f"?season={world.season.pk}"
        for role in ASKING:
            with transaction.atomic():
                response = world.client(role).get(url)
                transaction.set_rollback(True)
            if not is_private(response):
                kept.append(
                    f"GET {url} as {role.value}: {response.status_code}, "
                    f"Cache-Control {response.get('Cache-Control')!r}"
                )
    assert kept == [], "\n".join(kept)
