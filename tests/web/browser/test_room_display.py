"""The room display fits the room (issue 56, 5): 14 to 30 players on a 1366×768 laptop or
TV without scrolling, every name on one line (cut short with an ellipsis), and on a
375×740 phone no heading broken inside a word, in Japanese and English."""

from __future__ import annotations

import pytest
from django.utils import timezone

import actions.deals
from actions import rounds
from tests.web.browser.test_club_from_nothing import shot
from tournaments.games import league_game
from tournaments.games.base import demo_deals
from tournaments.models import Club, ClubNight, Match, Player, Season

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "長谷川・ヴァレンティーナ・美咲子",
    "佐々木 太郎左衛門之助",
    "勅使河原 彩",
    "Aki",
    "Bartholomew Featherstonehaugh",
    "小鳥遊 まどか",
    "西園寺 龍之介",
    "Chika",
    "五十嵐 千代",
    "Dmitri Vasilievich Karamazov",
    "一ノ瀬 蓮",
    "Eleanor",
    "九十九 さくら",
    "Fumiko",
]


def night_of(players: int, game: str = "napoleon", names: list[str] = NAMES) -> ClubNight:
    """A public night in rounds: ``players`` seated at ``game``'s tables, a deal at each."""
    club = Club.objects.create(name="神田カードクラブ", slug=f"kanda-{players}")
    season = Season.objects.create(club=club, name="2026年秋季リーグ", games=[game], public=True)
    night = ClubNight.objects.create(
        season=season, date=timezone.localdate(), venue="神田公民館 2階"
    )
    ids = [
        Player.objects.create(
            club=club,
            handle=f"p{i}",
            display_name=f"{names[i % len(names)]}{'' if i < len(names) else f' {i}'}",
        ).pk
        for i in range(players)
    ]
    rounds.draw_next_round(night, game=game, method="balanced", players=ids, deals=12, seed=1)
    for match in Match.objects.filter(table__club_night=night):
        handles = [p.handle for p in match.seated_players()]
        record = demo_deals(league_game(game), len(handles), handles, target=1)[0]
        actions.deals.enter_deal(match, record).stored()
    return night


HEADINGS_TALLER_THAN_TWO_LINES = """() => [...document.querySelectorAll(
    '#live h1, #live .live-round, #live th, #live caption, #live-tables strong')]
  .filter(e => e.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(e).lineHeight
    === 'normal' ? 1.5 * parseFloat(getComputedStyle(e).fontSize) : getComputedStyle(e).lineHeight) + 1)
  .map(e => [e.textContent.trim(), e.getBoundingClientRect().height])"""
ROWS_OF_MORE_THAN_ONE_LINE = """() => [...document.querySelectorAll('#live-standings td.name')]
  .filter(e => e.scrollHeight > 1.9 * parseFloat(getComputedStyle(e).fontSize))
  .map(e => e.textContent)"""
OUTSIDE_THE_WINDOW = """() => [...document.querySelectorAll('#live-standings tr, #live-tables li')]
  .filter(e => { const r = e.getBoundingClientRect();
    return r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth; })
  .map(e => e.textContent.trim().slice(0, 40))"""


@pytest.mark.parametrize("players", [14, 30])
def test_the_room_display_fits_the_room_and_a_phone(browser, live_server, tmp_path, players):
    night = night_of(players)
    for language in ("ja", "en"):
        for width, height in ((1366, 768), (375, 740)):
            context = browser.new_context(viewport={"width": width, "height": height})
            context.add_cookies(
                [{"name": "django_language", "value": language, "url": live_server.url}]
            )
            page = context.new_page()
            page.goto(f"{live_server.url}/nights/{night.pk}/live/")
            page.wait_for_selector("#live-standings tbody tr")
            shot(page, tmp_path, f"live-{players}-{width}-{language}")
            where = f"{players} players, {width}×{height}, {language}"
            assert page.locator("#live-standings tbody tr").count() == players, where
            # No heading is broken inside a word: none is taller than two lines.
            tall = page.evaluate(HEADINGS_TALLER_THAN_TWO_LINES)
            assert tall == [], (where, tall)
            # No name wraps: each standings row is one line (an ellipsis cuts it short).
            assert page.evaluate(ROWS_OF_MORE_THAN_ONE_LINE) == [], where
            if width == 1366:  # every row and table in the window, nothing scrolls
                assert page.evaluate(OUTSIDE_THE_WINDOW) == [], where
                assert page.evaluate("() => document.documentElement.scrollHeight") <= height
            # After a redraw by live.js (its own layout), the same.
            page.evaluate("() => { document.getElementById('live').dataset.etag = ''; }")
            page.wait_for_function(
                "() => Number(document.getElementById('live').dataset.updated || 0) > 0",
                timeout=10000,
            )
            assert page.locator("#live-standings tbody tr").count() == players, where
            if width == 1366:
                assert page.evaluate(OUTSIDE_THE_WINDOW) == [], where
            context.close()


def test_the_room_sees_the_night_not_the_secretarys_account(
    browser, live_server, tmp_path, django_user_model
):
    """The secretary opens the room display on the room's screen, signed in: the header
    shows neither her name nor her sign-out nor the API link (her phone shows her
    sign-out)."""
    from django.conf import settings
    from django.test import Client

    from tournaments.models import Membership

    night = night_of(14)
    user = django_user_model.objects.create_user("secretary", password="x-2026-room")
    Membership.objects.create(user=user, club=night.season.club, role=Membership.Role.ADMIN)
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    for width, height, shown in ((1366, 768, False), (375, 740, True)):
        context = browser.new_context(viewport={"width": width, "height": height})
        context.add_cookies(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
        )
        page = context.new_page()
        page.goto(f"{live_server.url}/nights/{night.pk}/live/")
        page.wait_for_selector("#live-standings tbody tr")
        shot(page, tmp_path, f"live-signed-in-{width}")
        if not shown:  # (a phone's narrow header shows the sign-out alone anyway)
            assert page.is_hidden("header .who") and page.is_hidden("header .api")
        assert page.is_visible("header form[data-sign-out]") is shown, width
        context.close()


NAMES_CUT_SHORT = """() => [...document.querySelectorAll('#live-tables .who')]
  .filter(e => e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1)
  .map(e => e.textContent.trim())"""


def test_a_big_nights_six_player_tables_show_every_name(browser, live_server, tmp_path):
    """42 players at seven Rettler tables of six, on a 1366×768 screen: each table's six
    names whole, on two lines (the room finds its seats there), and still nothing
    outside the window.  The standings show the top 30 and say so, as drawn by the server
    and again by the script's redraw; in Japanese too."""
    night = night_of(42, "rettler", ["Aki", "Chika", "Eleanor", "Fumiko", "Hana", "Ken"])
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.goto(f"{live_server.url}/nights/{night.pk}/live/")
    page.wait_for_selector("#live-standings tbody tr")
    shot(page, tmp_path, "live-42-rettler-1366")
    assert page.locator("#live-tables li").count() == 7
    assert page.evaluate(NAMES_CUT_SHORT) == []
    assert page.evaluate(OUTSIDE_THE_WINDOW) == []
    assert page.evaluate("() => document.documentElement.scrollHeight") <= 768
    assert page.locator("#live-standings tbody tr").count() == 30
    more = page.locator("#live-standings tfoot")
    assert more.count() == 1 and "Top 30 of 42" in more.inner_text()
    page.evaluate("() => { document.getElementById('live').dataset.etag = ''; }")
    page.wait_for_function("() => document.getElementById('live').dataset.updated")
    assert page.locator("#live-standings tbody tr").count() == 30
    assert page.locator("#live-standings tfoot").inner_text() == more.inner_text()
    assert page.evaluate(OUTSIDE_THE_WINDOW) == []
    context.close()
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    page = context.new_page()
    page.goto(f"{live_server.url}/nights/{night.pk}/live/")
    page.wait_for_function("() => document.getElementById('live').dataset.updated")
    shot(page, tmp_path, "live-42-rettler-1366-ja")
    assert "全42人中、上位30人" in page.locator("#live-standings tfoot").inner_text()
    assert page.evaluate(OUTSIDE_THE_WINDOW) == []
    context.close()


def demo_room(browser, live_server, demo, width: int, height: int):
    """The demo's first night (its season made public) on the room display, in a window
    of ``width``×``height``."""
    night = demo.table.club_night
    Season.objects.filter(pk=night.season_id).update(public=True)
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    page.goto(f"{live_server.url}/nights/{night.pk}/live/")
    return page


LATEST_CUT_SHORT = """() => [...document.querySelectorAll('#live-latest li, #live-latest .sc')]
  .filter(e => e.scrollWidth > e.clientWidth + 1 || e.getClientRects().length > 1 &&
    e.classList.contains('sc'))
  .map(e => e.textContent)"""


def test_a_night_of_eight_games_shows_every_games_standings(browser, live_server, tmp_path, demo):
    """The demo's first night: eight games at four tables, a board a game (34 lines).  On
    a 1366×768 screen every game's board is in the window, every row of it, as the server
    draws them and as the script redraws them: the games' names and headings take rows
    too, and the type is sized for them."""
    page = demo_room(browser, live_server, demo, 1366, 768)
    page.wait_for_selector("#live-standings tbody tr")
    shot(page, tmp_path, "live-eight-games-1366")
    assert page.locator("#live-standings caption").count() == 8  # a board a game
    assert page.evaluate(OUTSIDE_THE_WINDOW) == []
    page.evaluate("() => { document.getElementById('live').dataset.etag = ''; }")
    page.wait_for_function("() => document.getElementById('live').dataset.updated")
    assert page.evaluate(OUTSIDE_THE_WINDOW) == []
    assert page.evaluate("() => document.documentElement.scrollHeight") <= 768
    page.context.close()


def test_the_latest_deals_show_every_score(browser, live_server, tmp_path, demo):
    """At 1366×900 a five-player deal's line may be wider than the tables' side: it wraps
    between players' scores, never cut short with an ellipsis nor inside "Hana +0", as
    the server draws it and as the script redraws it."""
    page = demo_room(browser, live_server, demo, 1366, 900)
    page.wait_for_selector("#live-latest li")
    for drawn in ("server", "script"):
        if drawn == "script":
            page.evaluate("() => { document.getElementById('live').dataset.etag = ''; }")
            page.wait_for_function("() => document.getElementById('live').dataset.updated")
        shot(page, tmp_path, f"live-latest-1366-{drawn}")
        assert page.evaluate(LATEST_CUT_SHORT) == [], drawn
        five = page.locator("#live-latest li").filter(has_text="Hana").first
        assert five.locator(".sc").count() == 5, drawn
    page.context.close()


STANDINGS_FILL = """() => {
  const grid = document.querySelector('#live .live-grid').getBoundingClientRect();
  const bottom = Math.max(...[...document.querySelectorAll('#live-standings > *')]
    .map(e => e.getBoundingClientRect().bottom));
  return (bottom - grid.top) / grid.height; }"""


def test_the_type_grows_to_fill_a_large_screen_and_shrinks_with_it(
    browser, live_server, tmp_path, demo
):
    """A club's television is 1920×1080: the demo's first night (eight games, 34 lines)
    fills its height rather than stopping at the type a count of rows gives (which left
    the bottom eighth empty), and still nothing passes the window's bottom.  The window
    made smaller (a laptop's 1366×768), the type follows it; and so after a redraw."""
    page = demo_room(browser, live_server, demo, 1920, 1080)
    page.wait_for_function("() => document.getElementById('live').dataset.fitted")
    shot(page, tmp_path, "live-eight-games-1920")
    assert page.evaluate(OUTSIDE_THE_WINDOW) == []
    assert page.evaluate(STANDINGS_FILL) > 0.9
    large = page.evaluate(
        "() => parseFloat(getComputedStyle(document.getElementById('live')).fontSize)"
    )
    page.evaluate("() => { delete document.getElementById('live').dataset.fitted; }")
    page.set_viewport_size({"width": 1366, "height": 768})
    page.wait_for_function("() => document.getElementById('live').dataset.fitted")
    shot(page, tmp_path, "live-eight-games-1920-to-1366")
    assert page.evaluate(OUTSIDE_THE_WINDOW) == []
    assert page.evaluate("() => document.documentElement.scrollHeight") <= 768
    assert page.evaluate(STANDINGS_FILL) > 0.9
    small = page.evaluate(
        "() => parseFloat(getComputedStyle(document.getElementById('live')).fontSize)"
    )
    assert small < large
    page.evaluate("() => { document.getElementById('live').dataset.etag = ''; }")
    page.wait_for_function("() => document.getElementById('live').dataset.updated")
    assert page.evaluate(OUTSIDE_THE_WINDOW) == []
    assert page.evaluate(STANDINGS_FILL) > 0.9
    page.context.close()


WORDS_BROKEN = """() => [...document.querySelectorAll('#live-tables .progress')].flatMap(e => {
  const node = e.firstChild, found = [], words = /\\S+/g;
  for (let m; (m = words.exec(node.textContent)); ) {
    const range = document.createRange();
    range.setStart(node, m.index);
    range.setEnd(node, m.index + m[0].length);
    if (new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1) found.push(m[0]);
  }
  return found; })"""


def test_a_television_in_japanese_keeps_each_line_whole(
    browser, live_server, tmp_path, django_user_model
):
    """The secretary's room display on a 1920×1080 television, in Japanese, two tables
    behind and deals waiting: a table's progress breaks between its words, never inside
    「遅れ」 (「遅 / れ」 was seen on a walk), the waiting line is read as the heading's
    lines are (not in the standings' type, which pushed the page past the window's
    bottom), and the heading grows with the screen."""
    from django.conf import settings
    from django.test import Client

    from tournaments.models import Membership

    night = night_of(10, names=["伊藤 翔", "田中 健太", "高橋 彩", "佐藤 花子", "鈴木 一郎"])
    Season.objects.filter(pk=night.season_id).update(require_confirmation=True)
    first = Match.objects.filter(table__club_night=night).order_by("table__name").first()
    handles = [p.handle for p in first.seated_players()]
    for record in demo_deals(league_game("napoleon"), len(handles), handles, target=3)[1:3]:
        actions.deals.enter_deal(first, record).stored()
    user = django_user_model.objects.create_user("secretary", password="x-2026-room")
    Membership.objects.create(user=user, club=night.season.club, role=Membership.Role.ADMIN)
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    context.add_cookies(
        [
            {"name": "django_language", "value": "ja", "url": live_server.url},
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
            },
        ]
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/nights/{night.pk}/live/")
    page.wait_for_function("() => document.getElementById('live').dataset.fitted")
    shot(page, tmp_path, "live-tv-ja-1920")
    assert page.locator("#live-tables li.behind").count() == 2
    assert "件のディールが確認待ち" in page.locator("#live-waiting").inner_text()
    assert page.evaluate(WORDS_BROKEN) == []
    assert page.evaluate("() => document.documentElement.scrollHeight") <= 1080
    assert page.evaluate(OUTSIDE_THE_WINDOW) == []
    sizes = page.evaluate(
        """() => ['#live h1', '#live-waiting'].map(s =>
        parseFloat(getComputedStyle(document.querySelector(s)).fontSize))"""
    )
    heading, waiting = sizes
    assert heading >= 30 and waiting <= heading, sizes
    context.close()
