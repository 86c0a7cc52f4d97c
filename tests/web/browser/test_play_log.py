"""A full play log pasted on the entry page instead of the fields is stored, for every
game (issue 24, 6: Napoleon and Rettler refused it as "This field is required")."""

from __future__ import annotations

import json
import random

import pytest

import actions.deals
import actions.matches
import engine
from engine.deal import play_match
from tests.web.browser.conftest import sign_in
from tournaments.games.base import strip_envelope
from tournaments.models import Match

pytestmark = pytest.mark.django_db(transaction=True)
PHONE = {"width": 375, "height": 812}


def fresh_match(game: str) -> tuple[Match, dict]:
    """A new match of ``game`` at the demo's table of that game, with the demo match's
    players and rules, and the full play log of its first deal by the engine's random play."""
    demo = Match.objects.filter(game=game).earliest("pk")
    players = demo.seated_players()
    match = actions.matches.create_match(
        demo.table, game, players, rules=demo.rules, target=demo.target
    )
    handles = [p.handle for p in players]
    first = play_match(engine.GAMES[game], random.Random(24), handles, demo.rules, demo.target, 1)
    return match, strip_envelope(first[0])


def test_every_game_takes_a_pasted_play_log(browser, live_server, demo):
    page = browser.new_context(viewport=PHONE).new_page()
    sign_in(page, live_server.url, "/")
    for game in sorted(engine.GAMES):
        match, record = fresh_match(game)
        assert "tricks" in record or "moves" in record or "turns" in record or "rounds" in record
        page.goto(f"{live_server.url}/matches/{match.pk}/enter/")
        page.click("details summary")
        page.fill("#id_full_record", json.dumps(record))
        with page.expect_navigation():
            page.click("#save")
        assert not page.query_selector("#error-summary"), (game, page.inner_text("#error-summary"))
        stored = match.deals.get()
        assert stored.record == {**stored.record, **record}, game  # the log itself, completed
        assert stored.scores.count() >= 2, game
