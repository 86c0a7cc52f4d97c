"""A club's secretary connects the club's LINE relay from a phone and from a laptop:
from the set-up page to the webhooks page, adds the endpoint with its events, copies the
secret, sends a test event that the receiver checks, and sees its delivery."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reach.models import Endpoint
from tests.reach import receiver as receivers
from tournaments.models import Club, Membership

from .test_club_night import login

pytestmark = pytest.mark.django_db(transaction=True)

WAYS = {
    "375-ja": ({"width": 375, "height": 740}, "ja"),
    "1366-en": ({"width": 1366, "height": 900}, "en"),
}


def shot(page, tmp_path: Path, name: str) -> None:
    where = Path(os.environ.get("CLUBSCORE_SCREENSHOTS") or tmp_path)
    page.screenshot(path=str(where / f"webhooks-{name}.png"), full_page=True)


@pytest.mark.parametrize("way", list(WAYS))
def test_a_secretary_connects_the_clubs_bot(
    browser, live_server, django_user_model, settings, tmp_path, way
):
    settings.WEBHOOKS_ALLOW_HTTP = True  # the receiver is on this machine
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    viewport, language = WAYS[way]
    club = Club.objects.create(name="Hongo Card Club", slug="hongo")
    mina = django_user_model.objects.create_user("mina", password="mina-pw-2026")
    Membership.objects.create(club=club, user=mina, role=Membership.Role.ADMIN)
    receiver, server = receivers.start()
    context = browser.new_context(
        viewport=viewport, locale=language, extra_http_headers={"Accept-Language": language}
    )
    try:
        page = context.new_page()
        login(page, live_server.url, "mina", "mina-pw-2026", next_url="/clubs/hongo/setup/")
        page.click("nav.links a[href='/clubs/hongo/webhooks/']")
        shot(page, tmp_path, f"{way}-empty")
        assert page.locator("section.webhook").count() == 0
        # How a receiver checks a message, on the page itself: its code within the screen.
        page.click("#how-to-check summary")
        assert "Webhook(secret).verify(body, headers)" in page.inner_text("#how-to-check pre")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        shot(page, tmp_path, f"{way}-how-to-check")
        page.click("#how-to-check summary")

        # A mistake first: no event chosen; said in the page's language, nothing stored.
        page.fill("#id_new-url", receiver.url)
        page.click("#new-endpoint button[type=submit]")
        error = page.locator("#field-events .errorlist").inner_text()
        assert error == (
            "イベントを少なくとも一つ選んでください。"
            if language == "ja"
            else "Choose at least one event."
        )
        assert Endpoint.objects.count() == 0
        assert page.input_value("#id_new-url") == receiver.url  # kept for the next try
        shot(page, tmp_path, f"{way}-mistake")

        page.click("#field-events label:has(input[value='round.drawn'])")
        page.click("#field-events label:has(input[value='night.closed'])")
        page.fill("#id_new-description", "LINE relay")
        page.click("#new-endpoint button[type=submit]")
        page.wait_for_selector(".messages li.success")
        endpoint = Endpoint.objects.get()
        assert endpoint.events == ["round.drawn", "night.closed"]
        card = page.locator(f"#endpoint-{endpoint.pk}")
        # The new secret is shown at once, to be copied into the receiver; its fold says
        # it hides it now.
        assert card.locator("input.copy").is_visible()
        hide = "シークレットを隠す" if language == "ja" else "Hide the secret"
        assert card.locator("details.secret summary").inner_text().strip() == hide
        assert card.locator("input.copy").input_value() == endpoint.secret
        shot(page, tmp_path, f"{way}-added")

        receiver.secret = endpoint.secret
        card.locator("button[value=ping]").click()
        page.wait_for_selector(".messages li.success")
        (got,) = receiver.got
        assert got.verified["type"] == "ping"
        row = page.locator(f"#endpoint-{endpoint.pk} table.deliveries tr.delivered")
        assert row.count() == 1
        assert ("配信済み" if language == "ja" else "delivered") in row.inner_text()
        shot(page, tmp_path, f"{way}-tested")

        # A new secret, asked first.
        old = endpoint.secret
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator(f"#endpoint-{endpoint.pk} details.secret summary").click()
        page.locator(f"#endpoint-{endpoint.pk} button[value=rotate]").click()
        page.wait_for_selector(".messages li.success")
        endpoint.refresh_from_db()
        assert endpoint.secret != old
        # The old one signs beside it for a day: the page says until when, in the
        # club's time zone, with the new secret shown.
        assert card.locator("input.copy").is_visible()
        assert card.locator("input.copy").input_value() == endpoint.secret
        assert "Asia/Tokyo" in card.locator("[data-overlap]").inner_text()
        shot(page, tmp_path, f"{way}-rotated")
        # The old one leaked: it stops at once, asked first.
        page.once("dialog", lambda dialog: dialog.accept())
        card.locator("button[value=end_previous]").click()
        page.wait_for_selector(".messages li.success")
        assert not card.locator("[data-overlap]").count()
        endpoint.refresh_from_db()
        assert endpoint.previous_secret == ""
        # The page is no wider than the screen (nothing to scroll sideways).
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    finally:
        context.close()
        server.shutdown()
        server.server_close()
