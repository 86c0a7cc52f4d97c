"""Plots and tables read on a 375-pixel phone, and the sheet's words in Japanese (issue 15)."""

from __future__ import annotations

import pytest

from tests.web.browser.conftest import pad_cards, pad_taps, sign_in
from tournaments.models import Match

pytestmark = pytest.mark.django_db(transaction=True)
PHONE = {"width": 375, "height": 812}


def test_every_chart_label_is_at_least_11_pixels_and_dates_run_along_the_axis(
    browser, live_server, demo
):
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{live_server.url}/seasons/{demo.table.club_night.season_id}/")
    sizes = page.eval_on_selector_all(
        "svg.chart text",
        """els => els.map(e => {
            const svg = e.ownerSVGElement;
            const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
            return parseFloat(getComputedStyle(e).fontSize) * scale;
        })""",
    )
    assert sizes and min(sizes) >= 11, min(sizes)  # rendered pixels
    dates = page.eval_on_selector_all(
        "#game-rettler svg.chart text", "els => els.map(e => e.textContent)"
    )
    assert "10-03" in dates  # the first night on the x axis
    legend = page.eval_on_selector_all(
        "#game-rettler svg.chart text", "els => els.map(e => e.textContent)"
    )
    assert any(t.startswith("Aki ") for t in legend)  # a legend line: name and total


def test_the_leaderboard_keeps_rank_name_and_points_in_view(browser, live_server, demo):
    page = browser.new_page(viewport=PHONE)
    page.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    page.goto(f"{live_server.url}/seasons/{demo.table.club_night.season_id}/")
    board = page.locator("#game-rettler .scroll")
    board.evaluate("el => el.scrollLeft = el.scrollWidth")
    row = page.locator("#game-rettler table tr", has_text="Aki")
    for n in (1, 2, 3):  # rank, name, points
        box = row.locator(f"td:nth-child({n})").bounding_box()
        assert box and 0 <= box["x"] and box["x"] + box["width"] <= 375, n
    name = row.locator("td.name").bounding_box()
    assert name and name["height"] < 60  # 亜紀 under Aki, not a character per line


def test_the_sheet_speaks_japanese(browser, live_server, demo):
    page = browser.new_page(viewport=PHONE)
    page.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    page.goto(f"{live_server.url}/matches/{demo.pk}/")
    text = page.inner_text("table.sheet")
    assert "枚取得" in text and "taken" not in text
    assert "ゼロサム得点の累計" in page.inner_text("main")
    comrade = Match.objects.filter(game="comrade").earliest("pk")
    page.goto(f"{live_server.url}/matches/{comrade.pk}/")
    assert "3 ゲーム中 1 勝: バッド" in page.inner_text("main")


def test_a_refused_deal_in_japanese_names_its_problem_in_japanese(browser, live_server, demo):
    page = browser.new_page(viewport=PHONE)
    page.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    page.goto(f"{live_server.url}/accounts/login/?next=/matches/{demo.pk}/enter/")
    page.fill("#id_username", "scorer")
    page.fill("#id_password", "demo-scorer-2026")
    page.click("button[type=submit]")
    page.wait_for_selector("#deal-entry[data-ready]")
    page.click("#field-declarer label:has(input[value=aki])")
    page.click("#field-trump label:has(input[value=diamonds])")
    page.fill("#id_count", "28")
    pad_cards(page, "adjutant_cards", "SA")
    page.click("#field-adjutants label:has(input[value=aki])")
    page.fill("#id_pc_aki", "30")
    page.click("#save")
    summary = page.wait_for_selector("#error-summary").inner_text()
    assert "立った人" in summary and "declarer" not in summary


def scorer_on_a_phone(browser, live_server, path: str):
    """The demo's scorer signed in by thumb on a 375 px touch phone in Japanese, at ``path``."""
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    phone.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    phone.goto(f"{live_server.url}/accounts/login/?next={path}")
    phone.fill("#id_username", "scorer")
    phone.fill("#id_password", "demo-scorer-2026")
    phone.tap("button[type=submit]")
    return phone


def test_a_card_field_reads_its_cards_as_the_pad_shows_them(browser, live_server, demo):
    """A newcomer's walk: the pad's ♢ then A put 「DA」 in the adjutant's field, a code the
    pad itself never shows.  Under the field the cards read as on the pad (the field
    keeps the codes the record takes), undo included."""
    phone = scorer_on_a_phone(browser, live_server, f"/matches/{demo.pk}/enter/")
    phone.wait_for_selector("#deal-entry[data-ready]")
    read = phone.locator("#id_adjutant_cards + output.cards-read")
    assert read.inner_text() == "" and not read.is_visible()
    # Nothing typed is no mistake: the point cards' running sum is not red yet.
    assert phone.get_attribute("#points-sum", "class") == "sum"
    phone.locator("input.points").first.fill("9")
    assert phone.get_attribute("#points-sum", "class") == "sum off"
    for selector in pad_taps("adjutant_cards", "DA", "H10"):
        phone.tap(selector)
    assert phone.input_value("#id_adjutant_cards") == "DA H10"
    assert read.inner_text() == "♢A ♡10"
    phone.tap(".entry-section:has(#id_adjutant_cards) .cardpad button[data-undo]")
    assert read.inner_text() == "♢A"


def test_a_deal_waiting_for_confirmation_is_one_marked_line(browser, live_server, demo):
    """A newcomer's walk: on a phone the rows of deals waiting for confirmation stood
    three lines tall and nearly empty (their PIN buttons wrapped in the note, off to the
    right), marked by italics alone.  Each is one line, in the waiting box's colour."""
    from django.utils import timezone

    from tournaments.models import Deal, Season

    Season.objects.filter(pk=demo.table.club_night.season_id).update(require_confirmation=True)
    Deal.objects.filter(match__table=demo.table).update(confirmed_at=timezone.now())
    Deal.objects.filter(match=demo, number=3).update(confirmed_at=None)
    phone = scorer_on_a_phone(browser, live_server, f"/tables/{demo.table_id}/")
    waiting = phone.locator("table.sheet tr.pending")
    waiting.wait_for()
    done = phone.locator("table.sheet tr:not(.pending):has(td.num)").first.bounding_box()
    box = waiting.bounding_box()
    # One line: a plain row's height and its PIN button's, not the button wrapped under
    # the note (81 px against a plain row's 35 before).
    assert box and done and box["height"] < 2 * done["height"], (box, done)
    colour = waiting.locator("td").first.evaluate("td => getComputedStyle(td).backgroundColor")
    assert colour == "rgb(255, 248, 225)"


def test_a_forms_check_boxes_are_a_thumbs_size(browser, live_server, demo):
    """A newcomer's walk: the season form's 公開 and 確認 were bare 13 px boxes."""
    club = demo.table.club_night.season.club
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    phone.goto(f"{live_server.url}/accounts/login/?next=/clubs/{club.slug}/seasons/new/")
    phone.fill("#id_username", "admin")
    phone.fill("#id_password", "demo-admin-2026")
    phone.tap("button[type=submit]")
    public = phone.locator("#id_public")
    public.wait_for()
    box = public.bounding_box()
    assert box and box["width"] >= 24 and box["height"] >= 24, box
    public.tap()
    assert public.is_checked()


SMALL_TARGETS = """() => [...document.querySelectorAll('main a')]
  .filter(a => a.getClientRects().length)
  .map(a => [a.textContent.trim(), a.getBoundingClientRect().height, a.getBoundingClientRect().width])"""


def test_the_table_pages_links_are_a_thumbs_size(browser, live_server, demo):
    """A newcomer's walk measured the numbers of 「ディールを訂正: 1 2 3」 at 10×19 px: each is
    now a 44 px target, and on a touch screen no link of the page is under 24 px tall
    (WCAG 2.5.8)."""
    phone = scorer_on_a_phone(browser, live_server, f"/tables/{demo.table_id}/")
    phone.wait_for_selector(".tap-row a")
    assert phone.evaluate("matchMedia('(pointer: coarse)').matches")
    numbers = phone.locator(".tap-row a")
    assert numbers.count() >= demo.deals.count()
    for i in range(numbers.count()):
        box = numbers.nth(i).bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, box
    small = [t for t in phone.evaluate(SMALL_TARGETS) if t[1] < 24]
    assert not small, small


def test_a_form_sent_back_puts_the_cursor_in_its_first_problem(browser, live_server, settings):
    """A newcomer's walk: passwords that did not match sent the sign-up form back with the
    cursor in the user name, at the top, and the problem below the fold, behind the
    sticky button.  The cursor is now in the field with the problem, in sight."""
    settings.ALLOW_SIGN_UP = True
    phone = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True).new_page()
    phone.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    phone.goto(f"{live_server.url}/accounts/sign-up/")
    phone.fill("#id_account-username", "lena")
    phone.fill("#id_account-password1", "hongo-2026")
    phone.fill("#id_account-password2", "hongo-2027")
    phone.fill("#id_club-club", "Hongo Club")
    phone.tap(".save button")
    phone.wait_for_selector("[aria-invalid=true]")
    focused = phone.evaluate("document.activeElement.id")
    assert focused == "id_account-password2"
    box = phone.locator("#id_account-password2").bounding_box()
    save = phone.locator(".save").bounding_box()
    assert box and save and 0 <= box["y"] and box["y"] + box["height"] <= save["y"]


def test_at_rest_no_heading_hides_behind_the_sticky_columns_and_none_breaks(
    browser, live_server, demo
):
    """Issue 29, 8: at 375 px in Japanese the sticky points column sits where it stands
    (covering no heading), and the sheet's headings and row labels keep to one line."""
    page = browser.new_page(viewport=PHONE)
    page.context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    page.goto(f"{live_server.url}/seasons/{demo.table.club_night.season_id}/")
    edges = page.eval_on_selector(
        "table.leaderboard tr",
        "row => [...row.children].slice(2, 4).map(c => c.getBoundingClientRect())"
        ".map(r => [r.left, r.right])",
    )
    (_points_left, points_right), (deals_left, _deals_right) = edges
    assert points_right <= deals_left + 1, edges
    page.goto(f"{live_server.url}/matches/{demo.pk}/")
    lines = page.eval_on_selector_all(
        "table.sheet th, table.sheet td:first-child",
        """cells => cells.map(c => { const r = document.createRange(); r.selectNodeContents(c);
            return new Set([...r.getClientRects()].map(b => Math.round(b.top))).size; })""",
    )
    assert lines and max(lines) == 1, lines  # one line each: no word broken in two


@pytest.mark.parametrize("by", [30, 45, 200, 10_000])
def test_scrolled_no_heading_is_left_half_under_the_sticky_columns(browser, live_server, demo, by):
    """Issue 43, 8: scrolled sideways by a thumb, the leaderboard stops where the column at
    the sticky columns' edge is shown or hidden whole."""
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{live_server.url}/seasons/{demo.table.club_night.season_id}/")
    page.locator("#game-rettler .scroll").evaluate(f"el => el.scrollBy({{left: {by}}})")
    page.wait_for_timeout(1200)  # the scroll ends, then settles
    cut = page.eval_on_selector(
        "#game-rettler table.leaderboard",
        """table => { const edge = table.querySelector('th:nth-child(3)').getBoundingClientRect().right;
            return [...table.querySelectorAll('tr:first-child th:nth-child(n+4)')]
              .map(th => th.getBoundingClientRect())
              .filter(r => r.left < edge - 1 && r.right > edge + 1).length; }""",
    )
    assert cut == 0


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_header_says_who_is_signed_in_on_one_line(browser, live_server, demo, language):
    """A phone passed round the table says whose account it is: the account's name small
    under the brand, the header still one line (56 px), a long name cut short."""
    from django.contrib.auth.models import User

    User.objects.create_user("a-very-long-account-name", password="pw-long-2026-x")
    for name, password in (
        ("scorer", "demo-scorer-2026"),
        ("a-very-long-account-name", "pw-long-2026-x"),
    ):
        context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
        page = context.new_page()
        page.context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        sign_in(page, live_server.url, "/", name, password)
        who = page.locator("header .who")
        assert who.is_visible() and who.inner_text() == name
        header = page.locator("header").bounding_box()
        assert header["height"] <= 60, (name, header)  # one line, as signed out
        box, brand = who.bounding_box(), page.locator("header .brand").bounding_box()
        assert box["y"] >= brand["y"] + brand["height"] - 1  # under the brand, not over it
        assert box["y"] + box["height"] <= header["y"] + header["height"]
        context.close()
