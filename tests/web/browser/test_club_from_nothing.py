"""Issue 29's walk: a club from nothing to confirmed deals, with no Django admin and no
site operator, on a phone in Japanese and on a laptop in English.

A newcomer starts a club, invites a scorer and a member by link, adds fourteen players
from a list, makes a season and a night, draws and confirms the tables, downloads the
night's paper; a seated player with no account says who scores on the Rettler table's
phone with their PIN and enters two deals by its
link, one of them offline; a seated player confirms on that phone with their PIN; the
Rettler match is corrected at the table, ended and reopened with reasons, and its history
names players and says what changed.  Every tap and key press of the administrator's
way to confirmed tables is counted (the README quotes the counts)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.web.browser.conftest import kept_offline, pad_cards
from tests.web.browser.test_club_night import NAMES
from tests.web.browser.test_entry import Taps
from tournaments.models import Deal, Match, MatchEvent, Membership, Player

pytestmark = pytest.mark.django_db(transaction=True)

WAYS = {
    "375-ja": ({"width": 375, "height": 740}, "ja-JP"),
    "1366-en": ({"width": 1366, "height": 900}, "en-GB"),
}
TAP_BUDGET = 120
"""Issue 29: from an empty site to confirmed tables of a 14-player night."""


def shot(page, tmp_path: Path, name: str) -> None:
    """A screenshot of the walk; with ``CLUBSCORE_SCREENSHOTS=dir`` kept there (the
    README's pictures of the walk are made so: ``make test PYTEST_ARGS=…``)."""
    where = Path(os.environ.get("CLUBSCORE_SCREENSHOTS") or tmp_path)
    page.screenshot(path=str(where / f"walk-{name}.png"), full_page=False)


class Walk(Taps):
    def fill(self, selector: str, text: str) -> None:
        """A tap into the field, then each key."""
        self.tap(selector)
        self.type(text)

    def choose(self, selector: str, value: str) -> None:
        """A menu: a tap to open it, a tap to pick."""
        self.page.select_option(selector, value)
        self.count += 2

    def upload(self, selector: str, path: str) -> None:
        """The file chooser: a tap to open it, a tap on the file."""
        self.page.set_input_files(selector, path)
        self.count += 2


def _rettler_deal(page, handles: list[str], count: str) -> None:
    page.click(f"#field-declarer label:has(input[value='{handles[0]}'])")
    page.click("#field-trump label:has(input[value=spades])")
    page.fill("#id_count", count)
    pad_cards(page, "adjutant_cards", "SA")
    page.click(f"#field-adjutants label:has(input[value='{handles[1]}'])")
    page.fill(f"#id_pc_{handles[0]}", "20")
    page.fill(f"#id_pc_{handles[1]}", "10")


@pytest.mark.parametrize("way", list(WAYS))
def test_a_club_from_nothing_to_confirmed_deals(browser, live_server, settings, tmp_path, way):
    settings.ALLOW_SIGN_UP = True
    viewport, locale = WAYS[way]
    base = live_server.url
    laptop = browser.new_context(viewport=viewport, locale=locale)
    page = laptop.new_page()
    walk = Walk(page)

    # An empty site: sign in → "Start a club".
    page.goto(f"{base}/")
    walk.tap("header a[href^='/accounts/login/']")
    walk.tap("#start-club")
    walk.fill("#id_account-username", "lena")
    walk.fill("#id_account-password1", "hongo-2026")
    walk.fill("#id_account-password2", "hongo-2026")
    walk.fill("#id_club-club", "Hongo Club")
    shot(page, tmp_path, f"sign-up-{way}")
    walk.tap(".save button")
    page.wait_for_selector("#players")
    club = Membership.objects.get(user__username="lena", role="admin").club

    # Fourteen players from a list.
    roster = tmp_path / "players.csv"
    roster.write_text("name\n" + "\n".join(NAMES) + "\n", encoding="utf-8")
    walk.upload("#id_list", str(roster))
    walk.tap("#add-list")
    page.wait_for_selector(".messages")
    assert Player.objects.filter(club=club).count() == 14

    # A scorer and a member invited by link.
    walk.choose("#id_invite_role", "scorer")
    walk.tap("#make-invite")
    page.wait_for_selector(".messages")
    scorer_link = re.search(r"/join/[\w-]+/", page.inner_text(".messages")).group(0)
    walk.tap("#make-invite")  # the least role is the default: a member
    page.wait_for_selector(".messages")
    member_link = re.search(r"/join/[\w-]+/", page.inner_text(".messages")).group(0)
    page.locator("#invite").scroll_into_view_if_needed()
    shot(page, tmp_path, f"invitations-{way}")

    # A season that asks for confirmation, and tonight's club night.
    walk.tap("a[href$='/seasons/new/']")
    walk.fill("#id_name", "Winter")
    walk.tap("#field-games label:has(input[value=rettler])")
    walk.tap("#field-games label:has(input[value=napoleon])")
    walk.tap("label[for=id_require_confirmation]")
    walk.tap(".save button")
    walk.tap("a[href$='/nights/new/']")  # tonight by default
    walk.tap(".save button")

    # Who came (everyone), the games (ticked: the season has two), the draw.
    page.wait_for_selector("#attendance")
    walk.tap("#everyone")
    assert "14" in page.inner_text("#present-count")
    walk.tap("#propose")
    page.wait_for_selector("#proposal")
    shot(page, tmp_path, f"proposal-{way}")
    walk.tap("#confirm")
    page.wait_for_selector(".table-list")
    taps_to_tables = walk.count
    assert taps_to_tables <= TAP_BUDGET, taps_to_tables
    print(f"\n{way}: {taps_to_tables} taps from an empty site to confirmed tables")

    # The night's paper, one PDF.
    paper = page.request.get(base + page.get_attribute("a[href$='/paper.pdf']", "href"))
    assert paper.ok and paper.body().startswith(b"%PDF") and paper.body().count(b"/Type /Page") > 2

    # The invited join (another phone each).
    for link, role in ((scorer_link, "scorer"), (member_link, "member")):
        invited = browser.new_context(viewport=viewport, locale=locale).new_page()
        invited.goto(base + link)
        invited.fill("#id_account-username", f"new-{role}")
        invited.fill("#id_account-password1", "a new club 2026")
        invited.fill("#id_account-password2", "a new club 2026")
        invited.click(".save button")
        invited.wait_for_selector(".messages")
        assert Membership.objects.get(club=club, user__username=f"new-{role}").role == role
        invited.context.close()

    # A seated player's PIN, set by the administrator on the player's page.
    rettler = Match.objects.filter(table__club_night__season__club=club, game="rettler").get()
    seated = rettler.seated_players()
    handles = [p.handle for p in seated]
    for player, pin in ((seated[2], "2580"), (seated[0], "1470")):
        page.goto(f"{base}/clubs/{club.slug}/players/{player.pk}/")
        page.fill("#id_new_pin", pin)
        page.click(".save button")
        page.wait_for_selector(".messages")

    # The Rettler table's link, on the table list.
    page.goto(f"{base}/nights/{rettler.table.club_night_id}/tables/")
    shot(page, tmp_path, f"table-list-{way}")
    link = page.locator(f"section:has(a[href='/matches/{rettler.pk}/paper.pdf']) input.copy")
    table_link = link.input_value()

    # A scorer with no account, seated at the table: deal 1 online, deal 2 offline.
    phone_context = browser.new_context(viewport={"width": 375, "height": 740}, locale=locale)
    phone = phone_context.new_page()
    phone.goto(table_link)
    shot(phone, tmp_path, f"table-page-{way}")
    # Before the first deal, the scorer (a seated player) says who scores on this phone.
    phone.click("#phone-scorer a")
    phone.click(f"label[for=id_player_{seated[0].pk}]")
    phone.fill("#id_pin", "1470")
    phone.click(".save button")
    phone.wait_for_selector("#phone-scorer")
    phone.click(f"a[href='/matches/{rettler.pk}/enter/']")
    phone.wait_for_selector("#deal-entry[data-ready]")
    _rettler_deal(phone, handles, "30")
    phone.click("#save")
    phone.wait_for_selector(".messages")
    kept_offline(phone, cached=False)
    phone_context.set_offline(True)
    _rettler_deal(phone, handles, "29")
    phone.click("#save")
    phone.wait_for_function(
        "() => document.getElementById('queue-status').textContent.includes('1')"
    )
    phone_context.set_offline(False)
    phone.wait_for_selector("#queue[data-waiting='0']", state="attached", timeout=15000)
    deals = list(Deal.objects.filter(match=rettler).order_by("number"))
    assert [d.number for d in deals] == [1, 2]
    assert all(d.entered_at_table and d.entered_by is None for d in deals)

    # A seated player confirms deal 1 on that phone with their PIN.
    phone.goto(f"{base}/deals/{deals[0].pk}/pin/")
    phone.click(f"label[for=id_player_{seated[2].pk}]")
    phone.fill("#id_pin", "2580")
    shot(phone, tmp_path, f"pin-{way}")
    phone.click(".save button")
    phone.wait_for_selector(".messages")
    assert Deal.objects.get(pk=deals[0].pk).confirmed_by_player == seated[2]

    # Corrected at the table (its count), then ended and reopened by the administrator.
    phone.goto(f"{base}/deals/{deals[1].pk}/correct/")
    phone.fill("#id_count", "31")
    phone.fill("#id_reason", "count misheard")
    phone.click("#save")
    phone.wait_for_selector(".messages")
    page.goto(f"{base}/matches/{rettler.pk}/")
    page.fill("#end-match input[name=reason]", "closing time")
    page.click("#end-match button")
    page.wait_for_selector("#reopen")
    page.fill("form:has(#reopen) input[name=reason]", "one more deal")
    page.click("#reopen")
    page.wait_for_selector("#end-match")
    assert list(MatchEvent.objects.filter(match=rettler).values_list("action", "reason")) == [
        ("ended", "closing time"),
        ("reopened", "one more deal"),
    ]
    history = page.inner_text("main")
    assert re.search(r"29\s+31", history) and seated[0].display_name in history  # count 29 → 31
    assert "closing time" in history and "one more deal" in history
    page.locator("text=count misheard").scroll_into_view_if_needed()
    shot(page, tmp_path, f"history-{way}")
    phone_context.close()
    laptop.close()
