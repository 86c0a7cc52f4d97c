"""Every page passes axe-core (issue 43, 8): no serious or critical violation on any page
a person opens, in English and Japanese, at 375×740 and 1366×900.

The pages are every GET route of the access table (``web.routes``) that answers HTML,
in the world of ``tests/web/access_world.py``: read as the club's league administrator,
or anonymously where that is who reads it (sign-in, sign-up, an invitation).  axe-core
runs from axe-playwright-python's bundled copy (no network).  One rule is off on the API
docs page: Swagger UI (a third-party widget) puts a button inside its operations' summary
buttons (``nested-interactive``), which the site cannot change."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.test import Client

from tests.web import access_world
from tests.web.test_access_table import resolver_patterns, url_of
from web.routes import ROUTES, Role

pytestmark = pytest.mark.django_db(transaction=True)
SIZES = [(375, 740), (1366, 900)]
SERIOUS = {"serious", "critical"}
AXE_OPTIONS = {"resultTypes": ["violations"]}


def html_pages(world: access_world.World) -> dict[str, Role]:
    """URL → who reads it, for every GET route that answers a page."""
    found: dict[str, Role] = {}
    for pattern in resolver_patterns():
        route = ROUTES[pattern.name]
        if "GET" not in route.methods or pattern.name.startswith(("admin:", "api", "schema")):
            continue
        url = url_of(world, pattern)
        for role in (Role.ADMIN, Role.ANONYMOUS):
            answer = world.client(role).get(url)
            if answer.status_code == 200 and answer["Content-Type"].startswith("text/html"):
                found[url] = role
                break
    found["/api/docs/"] = Role.ANONYMOUS
    return found


@pytest.mark.parametrize("language", ["en", "ja"])  # one process of a parallel run each
def test_no_page_has_a_serious_axe_violation(browser, live_server, language):
    world = access_world.build()
    pages = html_pages(world)
    assert len(pages) >= 25, sorted(pages)
    admin = Client()
    admin.force_login(world.users[Role.ADMIN])
    session = admin.cookies["sessionid"].value
    axe = Axe()
    found: list[str] = []
    readers = {}
    for role in (Role.ADMIN, Role.ANONYMOUS):
        context = browser.new_context()
        context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        if role is Role.ADMIN:
            context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])
        readers[role] = context.new_page()
    for url, role in pages.items():
        page = readers[role]
        # Loaded once, then checked in full at each size: the layout follows the viewport.
        page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
        page.goto(live_server.url + url)
        options = dict(AXE_OPTIONS)
        if url == "/api/docs/":  # Swagger UI draws itself: once it has, and its own
            page.wait_for_selector(".swagger-ui .info")  # markup's one known fault
            options["rules"] = {"nested-interactive": {"enabled": False}}
        page.evaluate(axe.axe_script)  # axe-core into the page, once for both sizes
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            assert page.evaluate("innerWidth") == width
            result = page.evaluate("options => axe.run(document, options)", options)
            for v in result["violations"]:
                if v["impact"] in SERIOUS:
                    found.append(
                        f"{language} {width} {url}: {v['id']} {v['nodes'][0]['html'][:200]}"
                    )
    assert found == [], "\n".join(found)


def test_a_sheet_wider_than_the_phone_scrolls_by_keyboard(browser, live_server, demo):
    page = browser.new_page(viewport={"width": 375, "height": 740})
    page.goto(f"{live_server.url}/matches/{demo.pk}/")  # six players: wider than a phone
    box = page.locator(".scroll").first
    assert box.evaluate("el => el.scrollWidth > el.clientWidth")
    assert box.get_attribute("tabindex") == "0" and box.get_attribute("aria-label")
    for _ in range(40):  # Tab reaches it, and the arrow keys scroll it
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('scroll')"):
            break
    else:
        raise AssertionError("Tab never reaches the sheet")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.activeElement.scrollLeft > 0", timeout=3000)
    page.close()
