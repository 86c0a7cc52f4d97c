"""Notifications turned on from "my night" on a phone, in Japanese, at 375×740 (issue 58, 1):
at most two taps from the page to subscribed, and the server keeps the subscription.

Headless Chromium here reaches no real push service, so the page's
``PushManager.subscribe`` is a stand-in that answers with a subscription whose keys the
test made, at the stand-in push service on 127.0.0.1; the 'notifications' permission is
granted as the phone's owner would grant it (the browser's own "Allow": the second tap).
Then a message told to that player arrives at the stand-in, decrypted with those keys."""

from __future__ import annotations

import pytest

from reach import push, tasks, vapid
from reach.events import Event, Said
from reach.models import PushKind, Subscription
from reach.words import drawn
from tests.reach import push_service
from tests.web.browser.conftest import sign_in
from tests.web.browser.test_club_from_nothing import shot
from tests.web.browser.test_my_night import seated_tonight
from tournaments.models import Player

pytestmark = pytest.mark.django_db(transaction=True)

STAND_IN = """
(() => {
  const made = %s;
  let kept = null;
  PushManager.prototype.subscribe = function (options) {
    const key = new Uint8Array(options.applicationServerKey);
    kept = { endpoint: made.endpoint, options: options, toJSON: () => made };
    window.pushKeyLength = key.length;
    return Promise.resolve(kept);
  };
  PushManager.prototype.getSubscription = function () { return Promise.resolve(kept); };
})();
"""


@pytest.fixture
def service(settings):
    settings.PUSH_ALLOW_PRIVATE_ENDPOINTS = True
    vapid.key.cache_clear()
    found, server = push_service.start()
    yield found
    server.shutdown()
    server.server_close()
    vapid.key.cache_clear()


def test_notifications_on_from_my_night_in_two_taps(browser, live_server, tmp_path, service):
    import json

    night, match, me, token = seated_tonight()
    phone_keys = service.phone()
    service.server_key = vapid.application_server_key()

    for width, height, name in ((375, 740, "375"), (1366, 900, "1366")):
        context = browser.new_context(
            viewport={"width": width, "height": height}, has_touch=True, locale="ja-JP"
        )
        context.grant_permissions(["notifications"], origin=live_server.url)
        context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
        context.add_init_script(STAND_IN % json.dumps(phone_keys.json()))
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{token}/")  # the table's QR code
        page.goto(f"{live_server.url}/nights/{night.pk}/me/?player={me.pk}")
        page.wait_for_selector("#push [data-push-on]:not([hidden])")
        assert "この端末に通知する" in page.inner_text("#push")
        assert not page.is_visible("#push [data-push-off]")
        assert not page.is_visible("#push [data-push-kinds]")
        page.locator("#push").scroll_into_view_if_needed()
        shot(page, tmp_path, f"push-off-{name}-ja")
        page.tap("#push [data-push-on]")  # tap 1; the browser's "Allow" is tap 2 (granted)
        page.wait_for_selector("#push [data-push-off]:not([hidden])")
        assert page.is_visible("#push [data-push-off]")
        assert not page.is_visible("#push [data-push-on]")
        assert not page.is_visible("#push [data-push-blocked]")
        assert "この端末に通知します" in page.inner_text("#push [data-push-say]")
        assert page.evaluate("window.pushKeyLength") == 65
        chips = page.locator("#push [data-push-kinds] input:checked")
        assert chips.count() == len(PushKind)
        shot(page, tmp_path, f"push-on-{name}-ja")
        sub = Subscription.objects.get()
        assert (sub.player, sub.table, sub.night, sub.language) == (me, match.table, night, "ja")
        assert sub.endpoint == phone_keys.endpoint and sub.kinds == [k.value for k in PushKind]
        if name == "375":
            # A chip changes what is told, kept by the server.
            page.tap("#push label.chip:has(input[value='season'])")
            page.wait_for_function(
                "() => !document.querySelector(\"#push input[value='season']\").checked"
            )
            page.wait_for_timeout(300)
            assert "season" not in Subscription.objects.get().kinds
        else:
            page.tap("#push [data-push-off]")
            page.wait_for_selector("#push [data-push-on]:not([hidden])")
            assert not Subscription.objects.exists()
        context.close()
        if name == "375":
            # A message to this player reaches "the phone", in Japanese.
            said = Said(
                me.pk,
                PushKind.DRAWN,
                f"/nights/{night.pk}/me/?player={me.pk}",
                drawn(2, match.table.name, 1, [Player(display_name="Aya")]),
            )
            told = Event(
                "round.drawn:test",
                "round.drawn",
                night.season.club_id,
                night.season_id,
                night.pk,
                {},
                (said,),
            )
            tasks.send_later(push.tell(told))
            (got,) = service.wait(1)
            assert service.refused == [] and "ラウンド" in got.message["title"]
            Subscription.objects.all().delete()


def test_a_player_turns_them_on_before_their_night_is_drawn(
    browser, live_server, tmp_path, service, django_user_model
):
    """Next week's night, nobody seated yet: the signed-in player goes from the night's
    page to "my night" and finds their own card there, no name to tap."""
    import datetime as dt
    import json

    from django.utils import timezone

    from tournaments.models import Club, ClubNight, Membership, Player, Season

    club = Club.objects.create(name="Kanda", slug="kanda")
    season = Season.objects.create(club=club, name="Winter", games=["napoleon"])  # private
    night = ClubNight.objects.create(season=season, date=timezone.localdate() + dt.timedelta(7))
    me = Player.objects.create(club=club, handle="aya", display_name="Aya")
    Player.objects.create(club=club, handle="bo", display_name="Bo")
    user = django_user_model.objects.create_user("aya", "aya@example.org", "aya-pass-2026")
    Membership.objects.create(club=club, user=user, role=Membership.Role.MEMBER)
    Player.objects.filter(pk=me.pk).update(user=user)
    phone_keys = service.phone()
    service.server_key = vapid.application_server_key()

    for width, height, language in ((375, 740, "ja"), (1366, 900, "en")):
        context = browser.new_context(
            viewport={"width": width, "height": height}, has_touch=True, locale=language
        )
        context.grant_permissions(["notifications"], origin=live_server.url)
        context.add_cookies(
            [{"name": "django_language", "value": language, "url": live_server.url}]
        )
        context.add_init_script(STAND_IN % json.dumps(phone_keys.json()))
        page = context.new_page()
        sign_in(page, live_server.url, f"/nights/{night.pk}/", "aya", "aya-pass-2026")
        page.tap("#my-night")
        page.wait_for_selector("#push [data-push-on]:not([hidden])")
        assert "Aya" in page.inner_text("#own-messages")
        shot(page, tmp_path, f"before-the-draw-{width}-{language}")
        page.tap("#push [data-push-on]")
        page.wait_for_selector("#push [data-push-off]:not([hidden])")
        sub = Subscription.objects.get()
        assert (sub.player, sub.user, sub.night, sub.language) == (me, user, None, language)
        assert PushKind.DRAWN.value in sub.kinds
        shot(page, tmp_path, f"before-the-draw-on-{width}-{language}")
        context.close()
        Subscription.objects.all().delete()


BROKEN = """
(() => {
  PushManager.prototype.subscribe = function () {
    return Promise.reject(new DOMException("Registration failed - permission denied", "NotAllowedError"));
  };
  PushManager.prototype.getSubscription = function () { return Promise.resolve(null); };
})();
"""


def test_a_browser_that_fails_to_subscribe_is_answered_in_the_readers_language(
    browser, live_server, service
):
    """The browser's own error is in its language (English here); the page says the
    site's words instead, in Japanese, and stores nothing."""
    night, match, me, token = seated_tonight()
    context = browser.new_context(
        viewport={"width": 375, "height": 740}, has_touch=True, locale="ja-JP"
    )
    context.grant_permissions(["notifications"], origin=live_server.url)
    context.add_cookies([{"name": "django_language", "value": "ja", "url": live_server.url}])
    context.add_init_script(BROKEN)
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{token}/")
    page.goto(f"{live_server.url}/nights/{night.pk}/me/?player={me.pk}")
    page.tap("#push [data-push-on]")
    page.wait_for_selector("#push [data-push-say].push-error")
    said = page.inner_text("#push [data-push-say]")
    assert said == "通知をオンにできませんでした。もう一度お試しください。", said
    assert not Subscription.objects.exists()
    context.close()
