"""The entry path: a fixed, small number of statements however long the match, one of
them storing the deal; and the kept progress never lets a stale match store a wrong deal."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

import actions.deals
import actions.matches
import engine
from actions import after, corrections
from dbtools import backend
from engine.deal import play_match
from tests.conftest import NAPOLEON_SEATS, napoleon_deal
from tournaments import errors
from tournaments.models import Deal, DealScore, Match

ENTRY_STATEMENTS = 4
"""Token and user; the match and its table; the scorer's right to the table; the one
statement that locks the match, numbers the deal and inserts it with its scores."""


def _post(client, match, record):
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/api/matches/{match.pk}/deals/", {"record": record}, format="json")
    assert response.status_code == 201, response.json()
    return [q["sql"] for q in queries.captured_queries]


@pytest.fixture
def queued(monkeypatch):
    """The matches whose refresh was handed on, and the deals told to players and a
    club's tools: in production messages to the broker; here nothing runs (the tests'
    eager Celery would refresh the standings and fan out in-process)."""
    heard: list[int] = []
    told: list[tuple[str, dict[str, int]]] = []
    monkeypatch.setattr(after, "refresh_match", heard.append)
    monkeypatch.setattr(after, "tell", lambda kind, ids: told.append((kind, ids)))
    return heard, told


@pytest.mark.django_db(transaction=True)  # autocommit, as in production: no savepoints
def test_the_query_count_of_an_entry_is_pinned_and_does_not_grow_with_the_match(
    make_match, scorer, queued
):
    match = make_match("napoleon", NAPOLEON_SEATS)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=scorer).key}")
    _post(client, match, napoleon_deal())  # the first entry computes the kept progress
    counts = []
    for i in range(12):
        statements = _post(client, match, napoleon_deal(declarer=("ben", "dai", "aki")[i % 3]))
        counts.append(len(statements))
        stores = [s for s in statements if "INSERT INTO tournaments_deal " in s]
        assert len(stores) == 1 and "UPDATE tournaments_match" in stores[0]
        assert not [s for s in statements if 'FROM "tournaments_deal"' in s]  # no deal re-read
    assert counts == [ENTRY_STATEMENTS] * 12
    heard, told = queued
    assert heard == [match.pk] * 13  # every entry announced once
    deals = list(match.deals.order_by("number").values_list("pk", flat=True))
    assert told == [("deal.entered", {"deal": pk}) for pk in deals]
    assert list(match.deals.order_by("number").values_list("number", flat=True)) == list(
        range(1, 14)
    )


@pytest.fixture(params=["postgresql", "portable"])
def store_path(request):
    """PostgreSQL's one statement, and the ORM steps other databases (the SQLite demo) take:
    the portable twins chosen by name (``dbtools.backend.using``)."""
    with backend.using(request.param):
        yield request.param


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["twentytwo", "1234", "comrade", "packing", "bhabhi"])
def test_a_match_entered_through_its_kept_progress_equals_the_engine_replay(
    game, table, players, scorer, store_path
):
    """Games whose deals follow the match (dealers, hand sizes, eliminations): entered one
    by one from the kept progress, with a deletion and a restoration in the middle that
    empty it (a correction to the same record changes nothing); both ways of storing."""
    season = table.club_night.season
    season.games = [*season.games, game]
    season.save()
    rules = engine.GAMES[game]
    handles = list(players)[: min(rules.best_players, len(players))]
    records = play_match(rules, random.Random(11), handles, most=8)
    match = actions.matches.create_match(table, game, [players[h] for h in handles])
    for i, record in enumerate(records):
        deal = actions.deals.enter_deal(match, record, user=scorer).stored()
        if i == 1 and len(records) > 2:  # changes through the slow path, ending as before
            corrections.delete_deal(deal, scorer, "typo")
            corrections.restore_deal(Deal.objects.get(pk=deal.pk), scorer, "it stands")
            assert Match.objects.get(pk=match.pk).state is None
    stored = Match.objects.get(pk=match.pk)
    replay = engine.check_match(
        actions.deals.match_record(stored, [d.record for d in stored.deals.all()])
    )
    assert replay.valid
    assert stored.state["snapshot"] == replay.snapshot
    assert stored.state["number"] == len(records)
    assert (stored.status == Match.Status.FINISHED) == replay.finished
    scores = {
        (s.deal.number, s.player.handle): s.score
        for s in DealScore.objects.filter(deal__match=match)
    }
    assert scores == {
        (n, h): v for n, r in enumerate(replay.deals, start=1) for h, v in r.scores.items()
    }


@pytest.mark.django_db
def test_an_entry_against_a_stale_match_is_checked_again_under_the_lock(
    make_match, scorer, store_path
):
    match = make_match("napoleon", NAPOLEON_SEATS)
    stale = Match.objects.get(pk=match.pk)
    actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
    # ``stale`` still says no deal: its statement finds another version and stores nothing;
    # the entry is checked again with the match locked and becomes deal 2.
    deal = actions.deals.enter_deal(stale, napoleon_deal(declarer="ben"), user=scorer).stored()
    assert deal.number == 2
    assert Deal.objects.filter(match=match).count() == 2
    assert DealScore.objects.filter(deal__match=match).count() == 8
    with pytest.raises(errors.Rejection) as refused:
        actions.deals.enter_deal(
            Match.objects.get(pk=match.pk), napoleon_deal(), number=2, user=scorer
        ).stored()
    assert refused.value.conflict and refused.value.errors[0]["code"] == "deal_exists"


@pytest.mark.django_db
def test_a_refused_entry_writes_nothing_not_even_the_version(make_match, scorer):
    match = make_match("napoleon", NAPOLEON_SEATS)
    actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
    before = Match.objects.values_list("version", "state").get(pk=match.pk)
    with pytest.raises(errors.Rejection):
        actions.deals.enter_deal(match, napoleon_deal(declarer="zz"), user=scorer).stored()
    assert Match.objects.values_list("version", "state").get(pk=match.pk) == before
    assert Deal.objects.filter(match=match).count() == 1
