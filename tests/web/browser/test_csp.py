"""The pages keep working under their Content-Security-Policy (issue 24, 9): Chromium
reports no refused script or style on any page a person uses, and the page scripts that
moved out of the templates still do their work."""

from __future__ import annotations

import pytest

from tournaments.models import ClubNight, Match, Season

pytestmark = pytest.mark.django_db(transaction=True)


def sign_in_as(page, base, user, password):
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", user)
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.click("button[type=submit]")


def watched(context, refused: list[str]):
    """A new page of ``context`` whose refusals under its policy go into ``refused``."""
    page = context.new_page()
    page.on(
        "console",
        lambda m: refused.append(f"{page.url}: {m.text}")
        if "Content Security Policy" in m.text
        else None,
    )
    return page


def open_all(context, base: str, urls: list[str], refused: list[str]) -> None:
    """Every page of ``urls`` opened at once, each in a tab of its own, and each waited for
    until its network is idle (what its scripts fetch after loading included): the waits
    overlap instead of following one another."""
    pages = [watched(context, refused) for _ in urls]
    for page, url in zip(pages, urls, strict=True):
        page.goto(base + url, wait_until="commit")
    for page in pages:
        page.wait_for_load_state("networkidle")
        page.close()


def test_no_page_breaks_its_content_security_policy(browser, live_server, demo):
    context = browser.new_context(viewport={"width": 1366, "height": 800})
    refused: list[str] = []
    page = watched(context, refused)
    base = live_server.url
    season = Season.objects.get()
    night = ClubNight.objects.order_by("date").first()
    match = Match.objects.filter(game="napoleon").earliest("pk")
    public = [
        "/",
        f"/seasons/{season.pk}/",
        f"/seasons/{season.pk}/?sort=rating",
        f"/nights/{night.pk}/",
        f"/matches/{match.pk}/",
        f"/players/{match.seated_players()[0].pk}/",
        "/api/docs/",
        "/api/matches/",
        "/accounts/login/",
        "/admin/login/",
        "/api-auth/login/",
    ]
    open_all(context, base, public, refused)
    page.goto(base + "/api/docs/")
    page.wait_for_selector(".swagger-ui .opblock", timeout=15000)  # Swagger UI ran its script

    sign_in_as(page, base, "admin", "demo-admin-2026")
    admin_pages = [
        f"/matches/{match.pk}/enter/",
        "/clubs/kanda/setup/",
        "/clubs/kanda/import/",
        f"/nights/{night.pk}/draw/",
        f"/nights/{night.pk}/tables/",
        "/admin/",
        "/admin/tournaments/match/",
        f"/admin/tournaments/match/{match.pk}/change/",
    ]
    open_all(context, base, admin_pages, refused)
    assert refused == [], "\n".join(refused)

    # The scripts that left the templates: the attendance count, the language menu.
    page.goto(f"{base}/nights/{night.pk}/draw/")
    before = page.inner_text("#present-count")
    page.locator("#field-present input").first.click()
    assert page.inner_text("#present-count") != before and ":" in before
    with page.expect_navigation():
        page.select_option("select[name=language]", "ja")
    assert page.locator("html").get_attribute("lang") == "ja"
    context.close()
