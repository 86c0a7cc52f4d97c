"""The pages that say each game in its own terms (issue 56, 5), in Japanese on a phone
(375×740) and a laptop (1366×900): the rounds page and the room display with Packing's
points to 500, "my night" with a deal that waits, the night's standings one table per
game, head to head a line per game, the player's rank on its division's board."""

from __future__ import annotations

import pytest
from django.utils import timezone

import actions.deals
from actions import rounds
from scoring.rebuild import rebuild_all
from tests.conftest import play
from tests.web.browser.test_club_from_nothing import shot
from tournaments.games import league_game
from tournaments.games.base import demo_deals
from tournaments.models import (
    Club,
    ClubNight,
    Deal,
    DealScore,
    Division,
    Match,
    Membership,
    Placement,
    Player,
    Season,
)

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("青木", "井上", "上田", "江藤", "大野", "加藤", "木村", "工藤")


def test_each_game_in_its_own_terms_at_both_widths(
    browser, live_server, tmp_path, django_user_model
):
    club = Club.objects.create(name="神田カード会", slug="kanda")
    season = Season.objects.create(
        club=club, name="秋季リーグ", games=["napoleon", "packing"], public=True
    )
    night = ClubNight.objects.create(season=season, date=timezone.localdate(), venue="公民館")
    people = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=name)
        for i, name in enumerate(NAMES)
    ]
    everyone = [p.pk for p in people]
    first = rounds.draw_next_round(
        night, game="napoleon", method="balanced", deals=2, players=everyone, seed=1
    ).round
    play(first, seed=3)
    second = rounds.draw_next_round(
        night, game="packing", method="swiss", players=everyone, seed=2
    ).round
    packing = list(Match.objects.filter(table__round=second).order_by("table__name"))

    def deals(match: Match, seed: int, most: int | None = None) -> None:
        handles = [p.handle for p in match.seated_players()]
        game = league_game("packing")
        for record in demo_deals(game, seed, handles, target=500, most=most, first_in_full=False):
            actions.deals.enter_deal(match, record).stored()

    deals(packing[1], 41)  # played to 500
    season.require_confirmation = True
    season.save()
    Deal.objects.filter(match__table__club_night=night).update(confirmed_at=timezone.now())
    deals(packing[0], 40, most=1)  # one deal, anonymous: it waits
    top = Division.objects.create(season=season, name="A", order=0)
    low = Division.objects.create(season=season, name="B", order=1)
    for i, p in enumerate(people):
        Placement.objects.create(season=season, player=p, division=top if i < 4 else low)
    rebuild_all()
    waiting = Deal.objects.filter(match=packing[0]).get()
    loser = DealScore.objects.filter(deal=waiting).order_by("score", "player_id").first().player
    finished = packing[1].seated_players()
    a, b = next(
        (
            (a, b)
            for a in finished
            for b in finished
            if a != b
            and Match.objects.filter(table__round=first, seats__player=a)
            .filter(seats__player=b)
            .exists()
        ),
        (finished[0], finished[1]),
    )
    admin = django_user_model.objects.create_user("secretary", "s@example.org", "secret-pass-1")
    Membership.objects.create(user=admin, club=club, role=Membership.Role.ADMIN)

    base = live_server.url
    for width, height in ((375, 740), (1366, 900)):
        context = browser.new_context(
            viewport={"width": width, "height": height}, has_touch=width < 800, locale="ja-JP"
        )
        context.add_cookies([{"name": "django_language", "value": "ja", "url": base}])
        page = context.new_page()
        page.goto(f"{base}/accounts/login/?next=/nights/{night.pk}/rounds/")
        page.fill("#id_username", "secretary")
        page.fill("#id_password", "secret-pass-1")
        page.click("button[type=submit]")
        page.wait_for_selector(f"#round-{second.number}")
        text = page.inner_text(f"#round-{second.number}")
        assert "500 点先取：トップ" in text and "終了" in text and "入力済み" not in text
        shot(page, tmp_path, f"shown-rounds-{width}-ja")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        page.goto(f"{base}/nights/{night.pk}/live/")
        assert "500 点先取：トップ" in page.inner_text("#live-tables")
        assert page.locator("#live-standings table").count() == 2
        shot(page, tmp_path, f"shown-live-{width}-ja")
        page.goto(f"{base}/nights/{night.pk}/me/?player={loser.pk}")
        said = page.inner_text("#mine-waiting")
        assert "確認待ち" in said and "（確認後）" in said
        assert page.locator("#mine-rank p").count() == 2  # a line for each game
        shot(page, tmp_path, f"shown-my-night-{width}-ja")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        page.goto(f"{base}/nights/{night.pk}/")
        assert page.locator("table.night-board").count() == 2
        page.locator("#night-standings").scroll_into_view_if_needed()
        shot(page, tmp_path, f"shown-night-standings-{width}-ja")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        page.goto(f"{base}/players/{a.pk}/head-to-head/?with={b.pk}")
        shot(page, tmp_path, f"shown-head-to-head-{width}-ja")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        page.goto(f"{base}/players/{loser.pk}/")
        assert "ディビジョン" in page.locator(".board-rank").first.inner_text()
        page.locator(".board-rank").first.scroll_into_view_if_needed()
        shot(page, tmp_path, f"shown-player-{width}-ja")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        context.close()
