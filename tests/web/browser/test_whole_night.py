"""Issue 43's walk: a whole club night on 375×740 phones in Japanese, by taps only.

A secretary starts a club, invites a scorer, adds fourteen players from a list, makes a
season that asks for confirmation and tonight's night, takes attendance and plays it in
rounds: round 1 balanced, two deals a table.  Every deal is entered by the table's link
on a scorer's phone with no account, with chips, the card pad and digits; one table's
first deal is saved just before the network drops.  The room display shows what waits;
the secretary confirms every deal with a seated player's PIN from the rounds page; the
room display then shows the confirmed standings, round 2 is drawn Swiss from them (the
night's leaders at one table), its deals entered and confirmed, and the night's paper
downloads.  Each player set their PIN on their own page beforehand (not part of the
walk).  The taps are counted: the secretary's and the scorers'."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from actions import pins
from tests.web.browser.conftest import tap_deal
from tests.web.browser.test_club_from_nothing import shot
from tests.web.browser.test_club_night import NAMES
from tests.web.browser.test_entry import Taps
from tournaments.games import LEAGUE_GAMES
from tournaments.games.base import demo_deals
from tournaments.models import ClubNight, Deal, Match, Membership, Player, Round

pytestmark = pytest.mark.django_db(transaction=True)
PHONE = {"viewport": {"width": 375, "height": 740}, "has_touch": True, "locale": "ja-JP"}
PIN = "2468"


class Thumb(Taps):
    """Taps (``page.tap``) and key presses, counted."""

    def tap(self, selector: str) -> None:
        self.page.tap(selector)
        self.count += 1

    def fill(self, selector: str, text: str) -> None:
        self.tap(selector)
        self.type(text)


def enter_deals(browser, link: str, deals: int, seed: int, drop: Path | None = None) -> int:
    """A scorer's phone with no account opens the table's ``link`` and taps in ``deals``
    deals (with ``drop``, a folder for its screenshot, the network drops right after the
    first is stored); the taps."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(link)
    match = Match.objects.get(pk=int(re.search(r"/matches/(\d+)/", page.content()).group(1)))
    handles = [p.handle for p in match.seated_players()]
    thumb = Thumb(page)
    # The scorer, a seated player, says who scores on this phone (name and PIN) first.
    thumb.tap("#phone-scorer a")
    first_name_and_pin(page, thumb)
    page.wait_for_selector("#phone-scorer")
    thumb.tap(f"a[href='/matches/{match.pk}/enter/']")
    page.wait_for_selector("#deal-entry[data-ready]")
    if drop is not None:  # the entry page is kept for use offline, with its style and script
        page.wait_for_function(
            "() => caches.open('clubscore-assets').then(c => c.keys()).then(k => k.length >= 2)"
            " && caches.match(location.pathname).then(Boolean)",
            timeout=15000,
        )
    napoleon = LEAGUE_GAMES["napoleon"]
    for n in range(deals):
        record = demo_deals(napoleon, seed + n, handles, most=1, first_in_full=False)[0]
        thumb.count += tap_deal(page, napoleon.initial(record, handles))
        if drop is not None and n == 0:

            def answer_then_drop(route) -> None:
                if route.request.method != "POST":
                    route.continue_()
                    return
                answer = route.fetch()
                context.set_offline(True)
                route.fulfill(response=answer)

            page.route("**/enter/", answer_then_drop)
            thumb.tap("#save")
            page.wait_for_selector("#kept-saved:not([hidden])")
            assert page.inner_text("#deal-number") == "2"  # never deal 1 again
            shot(page, drop, "whole-night-kept-375-ja")
            page.unroute("**/enter/")
            context.set_offline(False)
            continue
        with page.expect_navigation():  # stored: the next form, or the table's page
            thumb.tap("#save")
        page.wait_for_selector(".messages")
    assert match.deals.count() == deals
    context.close()
    return thumb.count


def table_links(page, base: str, night: ClubNight, number: int) -> list[str]:
    page.goto(f"{base}/nights/{night.pk}/tables/?round={number}")
    return [box.input_value() for box in page.locator(".table-link input.copy").all()]


def first_name_and_pin(page, thumb: Thumb) -> None:
    """On a PIN page, the first name offered and its PIN (every player here has ``PIN``)."""
    thumb.tap("label[for^=id_player_] >> nth=0")
    thumb.fill("#id_pin", PIN)
    with page.expect_navigation():
        thumb.tap(".save button")


def confirm_all(page, thumb: Thumb, base: str, night: ClubNight) -> None:
    """Every waiting deal confirmed with a seated player's PIN, from the rounds page."""
    while True:
        page.goto(f"{base}/nights/{night.pk}/rounds/")
        pin_links = page.locator("#waiting a[href*='/pin/']")
        if not pin_links.count():
            return
        thumb.tap("#waiting a[href*='/pin/'] >> nth=0")
        first_name_and_pin(page, thumb)
        page.wait_for_selector(".messages")


def test_a_whole_night_on_phones_in_japanese_by_taps(browser, live_server, settings, tmp_path):
    settings.ALLOW_SIGN_UP = True
    base = live_server.url
    phone = browser.new_context(**PHONE)
    page = phone.new_page()
    thumb = Thumb(page)

    # Sign-up: the secretary starts a club.
    page.goto(f"{base}/accounts/sign-up/")
    thumb.fill("#id_account-username", "yuki")
    thumb.fill("#id_account-password1", "hongo-night-2026")
    thumb.fill("#id_account-password2", "hongo-night-2026")
    thumb.fill("#id_club-club", "本郷カード会")
    thumb.tap(".save button")
    page.wait_for_selector("#players")
    club = Membership.objects.get(user__username="yuki", role="admin").club

    # Fourteen players from a list; a scorer invited by link, said for whom.
    roster = tmp_path / "players.csv"
    roster.write_text("name\n" + "\n".join(NAMES) + "\n", encoding="utf-8")
    page.set_input_files("#id_list", str(roster))
    thumb.count += 2  # the file chooser: open, pick
    thumb.tap("#add-list")
    page.wait_for_selector(".messages")
    for player in Player.objects.filter(club=club):  # each set on their own page
        pins.set_pin(player, PIN)
    page.select_option("#id_invite_role", "scorer")
    thumb.count += 2
    thumb.fill("#id_invite_meant_for", "Ken")
    thumb.tap("#make-invite")
    page.wait_for_selector("#invitations")
    assert "Ken" in page.inner_text("#invitations")

    # A season that asks for confirmation, tonight's night, who came, rounds.
    thumb.tap("a[href$='/seasons/new/']")
    thumb.fill("#id_name", "冬季リーグ")
    thumb.tap("#field-games label:has(input[value=napoleon])")
    thumb.tap("label[for=id_require_confirmation]")
    thumb.tap(".save button")
    thumb.tap("a[href$='/nights/new/']")
    thumb.tap(".save button")
    page.wait_for_selector("#attendance")
    night = ClubNight.objects.get(season__club=club)
    thumb.tap("#everyone")
    thumb.tap("#play-rounds")
    page.wait_for_selector("#next-round")
    assert page.locator("#field-players input:checked").count() == 14  # round 1 from who came
    thumb.tap("#id_deals")
    page.keyboard.press("Backspace")
    thumb.type("2")
    thumb.tap("#propose")
    page.wait_for_selector("#round-proposal")
    thumb.tap("#confirm-round")
    page.wait_for_selector("#round-1")
    secretary_to_round_1 = thumb.count

    # Every table's deals, by its link, on a scorer's phone; table 1's first deal is
    # saved just before the network drops.
    links = table_links(page, base, night, 1)
    assert len(links) == Round.objects.get(club_night=night, number=1).tables.count() >= 3
    scorer_taps = [
        enter_deals(browser, link, 2, 10 * i, drop=tmp_path if i == 0 else None)
        for i, link in enumerate(links)
    ]
    waiting = Deal.objects.filter(match__table__club_night=night, confirmed_at__isnull=True)
    assert waiting.count() == 2 * len(links)

    # The room display says what waits; the round is finished by confirming.
    page.goto(f"{base}/nights/{night.pk}/live/")
    assert str(waiting.count()) in page.inner_text("#live-waiting")
    shot(page, tmp_path, "whole-night-room-waiting-375-ja")
    confirm_all(page, thumb, base, night)
    assert not waiting.exists()
    page.goto(f"{base}/nights/{night.pk}/live/")
    assert page.locator("#live-waiting").is_hidden()
    totals = [int(t) for t in page.locator("#live-standings td.num").all_inner_texts()]
    assert any(totals)  # the confirmed standings, not fourteen zeros

    # Round 2, Swiss from the confirmed standings: the night's leaders sit together.
    from scoring.night import standings

    leaders = [line.player for line in standings(night)[1][:2]]
    page.goto(f"{base}/nights/{night.pk}/rounds/")
    assert page.locator("#id_method_swiss").is_checked()
    thumb.tap("#id_deals")
    page.keyboard.press("Backspace")
    thumb.type("1")
    thumb.tap("#propose")
    page.wait_for_selector("#round-proposal")
    thumb.tap("#confirm-round")
    page.wait_for_selector("#round-2")
    second = Round.objects.get(club_night=night, number=2)
    tables = dict(
        Match.objects.filter(table__round=second).values_list("seats__player_id", "table_id")
    )
    assert tables[leaders[0]] == tables[leaders[1]]
    links = table_links(page, base, night, 2)
    scorer_taps += [enter_deals(browser, link, 1, 100 + 10 * i) for i, link in enumerate(links)]
    confirm_all(page, thumb, base, night)
    assert not Deal.objects.filter(match__table__club_night=night, confirmed_at__isnull=True)

    # The night's paper.
    paper = page.request.get(f"{base}/nights/{night.pk}/paper.pdf")
    assert paper.ok and paper.body().startswith(b"%PDF")
    print(
        f"\nwhole night: secretary {secretary_to_round_1} taps to round 1 seated, "
        f"{thumb.count} in all; scorers {sum(scorer_taps)} taps for "
        f"{Deal.objects.filter(match__table__club_night=night).count()} deals"
    )
    phone.close()
