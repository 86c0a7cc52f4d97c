"""generate_federation: a federation whose every deal the engine accepts, in bulk."""

import random

import pytest
from django.core.management import call_command

import engine
from actions.deals import match_record
from ops.federation import PLAN, match_pool, seated
from scoring.models import MatchStanding, Rating, SeasonStanding
from tournaments.games.base import PlannedMatch
from tournaments.models import Club, Deal, DealScore, Match, Player

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def test_a_generated_federation_is_legal_complete_and_rated(capsys):
    call_command("generate_federation", clubs=3, players=45, deals=600, seed=7)
    assert "600 deals" in capsys.readouterr().out
    assert Club.objects.count() == 3 and Player.objects.count() == 45
    assert Deal.objects.count() == 600
    games = set(Match.objects.values_list("game", flat=True))
    assert games == {game for game, _ in PLAN}
    for match in Match.objects.prefetch_related("seats__player"):
        records = list(match.deals.order_by("number").values_list("record", flat=True))
        result = engine.check_match(match_record(match, records))
        assert result.valid, (match.game, [e.to_dict() for e in result.errors][:2])
        assert result.finished == (match.status == Match.Status.FINISHED)
        if match.game == "comp13" and result.finished:
            assert len(records) == 12
    # The stored scores are the engine's, every deal zero-sum or as the game scores it.
    deal = Deal.objects.filter(match__game="rettler").first()
    stored = dict(DealScore.objects.filter(deal=deal).values_list("player__handle", "score"))
    assert stored == engine.check(deal.record).scores
    assert MatchStanding.objects.values("match").distinct().count() == Match.objects.count()
    assert SeasonStanding.objects.exists() and Rating.objects.filter(game="napoleon").exists()


def test_the_pool_is_the_same_for_the_same_seed_and_fills_any_seats():
    planned = PlannedMatch(4, target=500)
    first = match_pool("packing", planned, random.Random(3), size=2)
    assert first == match_pool("packing", planned, random.Random(3), size=2)
    deals = [
        {
            "game": "packing",
            "players": ["w", "x", "y", "z"],
            "teams": [["w", "y"], ["x", "z"]],
            **deal,
        }
        for deal in seated(first[0], ["w", "x", "y", "z"])
    ]
    match = engine.check_match({"game": "packing", "players": ["w", "x", "y", "z"], "deals": deals})
    assert match.valid and match.finished
    assert "seat0" not in str(deals)


def test_nonsense_sizes_are_refused():
    with pytest.raises(SystemExit):
        call_command("generate_federation", clubs=0, players=10, deals=10)
    assert not Club.objects.exists()
