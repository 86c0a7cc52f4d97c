"""Confirmation the room can see: in a season that asks for confirmation, deals that wait
are said on the room display, the night's page, the match and table pages, and the
rounds page, which confirms them; the next round is drawn only once they are confirmed
(its Swiss order comes from confirmed standings, never from the zeros of waiting deals)."""

from __future__ import annotations

import html
import time

import pytest
from django.test import Client

from actions import rounds
from scoring import live_cache
from tests.conftest import member_of, play
from tests.markup import words
from tournaments.errors import Rejection
from tournaments.models import Deal, Membership, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def confirming_night(room):
    night, players = room
    season = night.season
    season.require_confirmation = True
    season.save()
    return night, players


def four_play(night, players) -> Round:
    """Round 1 at one table of four, two deals played (and waiting where the season asks
    for confirmation)."""
    first = rounds.draw_next_round(
        night,
        game="napoleon",
        method="balanced",
        players=[p.pk for p in players[:4]],
        deals=2,
        seed=1,
    ).round
    play(first)
    return first


def test_a_round_whose_deals_wait_is_not_finished_and_the_room_is_told(
    confirming_night, django_capture_on_commit_callbacks, django_user_model
):
    night, players = confirming_night
    eight = [p.pk for p in players[:8]]
    with django_capture_on_commit_callbacks(execute=True):
        first = rounds.draw_next_round(
            night, game="napoleon", method="balanced", players=eight, deals=2, seed=1
        ).round
        play(first)
    waiting = Deal.objects.filter(match__table__round=first, confirmed_at__isnull=True).count()
    assert waiting == 4 and len(rounds.waiting(first)) == 4
    with pytest.raises(Rejection) as refused:
        rounds.draw_next_round(night, game="napoleon", method="swiss", deals=2, seed=2)
    assert refused.value.conflict and refused.value.errors[0]["code"] == "round_unconfirmed"
    assert Round.objects.count() == 1

    director = Client()
    director.force_login(
        member_of(night.season.club, django_user_model, "dir", Membership.Role.ADMIN)
    )
    said = "4 deals wait for confirmation"
    rounds_page = director.get(f"/nights/{night.pk}/rounds/").content.decode()
    assert said in rounds_page and 'id="next-round"' not in rounds_page
    for deal in rounds.waiting(first):  # each with its scores, to check before a PIN
        scores = ", ".join(f"{s.player.display_name} {s.score:+d}" for s in deal.scores.all())
        assert scores in html.unescape(words(rounds_page)), scores
    assert said in director.get(f"/nights/{night.pk}/").content.decode()
    assert said in director.get(f"/nights/{night.pk}/live/").content.decode()
    live = director.get(f"/api/club-nights/{night.pk}/live/").json()
    assert live["waiting"] == 4
    match = first.tables.first().matches.get()
    assert "2 deals wait for confirmation" in director.get(f"/matches/{match.pk}/").content.decode()

    # Confirmed from the rounds page (the administrator entered none of them).
    with django_capture_on_commit_callbacks(execute=True):
        for deal in rounds.waiting(first):
            back = director.post(
                f"/deals/{deal.pk}/confirm/", {"next": f"/nights/{night.pk}/rounds/"}
            )
            assert back["Location"] == f"/nights/{night.pk}/rounds/"
    assert rounds.waiting(first) == []
    time.sleep(live_cache.FRESH_SECONDS + 0.1)  # the room display's answer is kept that long
    assert director.get(f"/api/club-nights/{night.pk}/live/").json()["waiting"] == 0
    with django_capture_on_commit_callbacks(execute=True):
        second = rounds.draw_next_round(
            night, game="napoleon", method="swiss", deals=2, seed=2
        ).round
    assert second.number == 2


def test_a_confirm_sends_back_only_to_this_site(confirming_night, django_user_model):
    night, players = confirming_night
    first = four_play(night, players)
    deal = rounds.waiting(first)[0]
    director = Client()
    director.force_login(
        member_of(night.season.club, django_user_model, "dir", Membership.Role.ADMIN)
    )
    answer = director.post(f"/deals/{deal.pk}/confirm/", {"next": "https://evil.example/"})
    assert answer["Location"] == f"/matches/{deal.match_id}/"


def test_a_season_without_confirmation_waits_for_nothing(room):
    night, players = room
    first = four_play(night, players)
    assert rounds.waiting(first) == []
    assert (
        rounds.draw_next_round(night, game="napoleon", method="swiss", deals=2, seed=2).round.number
        == 2
    )


def test_the_room_display_says_what_waits_in_japanese_too(confirming_night, django_user_model):
    night, players = confirming_night
    four_play(night, players)
    reader = Client(HTTP_ACCEPT_LANGUAGE="ja")
    reader.force_login(member_of(night.season.club, django_user_model, "m", Membership.Role.MEMBER))
    page = reader.get(f"/nights/{night.pk}/live/").content.decode()
    assert "2 件のディールが確認待ちです" in page  # as drawn by the server
    assert 'data-waiting-many="%s 件のディールが確認待ちです' in page  # as redrawn by the script
