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


def test_no_page_breaks_its_content_security_policy(browser, live_server, demo):
    context = browser.new_context(viewport={"width": 1366, "height": 800})
    page = context.new_page()
    refused: list[str] = []
    page.on(
        "console",
        lambda m: refused.append(f"{page.url}: {m.text}")
        if "Content Security Policy" in m.text
        else None,
    )
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
    for url in public:
        page.goto(base + url)
        page.wait_for_load_state("networkidle")
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
    for url in admin_pages:
        page.goto(base + url)
        page.wait_for_load_state("networkidle")
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
