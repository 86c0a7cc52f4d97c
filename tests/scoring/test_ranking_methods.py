"""How a season ranks, chosen by its administrator (issue 40): every method, with and
without a qualifying minimum, ranks the stored lines as a ranking made from the deals
alone would, on PostgreSQL's statement and on the portable twin, after corrections too;
changing the method re-ranks without checking a match again."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from typing import NamedTuple

import pytest
from django.db.models import Count, Q, Sum
from django.utils import translation

import engine
from actions import corrections, seasons
from dbtools import backend
from scoring.models import MatchStanding, SeasonStanding
from scoring.rebuild import rebuild_all
from scoring.season_totals import rebuild_season_standings
from tests import worlds
from tournaments.models import Deal, DealScore, Match, Season, counting_deals
from tournaments.ranking import Played, Rule, explain, score

pytestmark = pytest.mark.django_db

METHODS = [
    ("total", None, 0),
    ("per_match", None, 3),
    ("per_deal", None, 0),
    ("best_nights", 3, 4),
    ("best_matches", 4, 0),
]
"""Each ranking method, with a best N and a qualifying minimum to rank a season by."""


class Seen(NamedTuple):
    """What a player played of a game, seen from the deals' scores alone."""

    total: int
    deals: int
    matches: list[int]
    """The points of each match."""
    nights: list[int]
    """The points of each club night."""


FIGURES: dict[str, Callable[[Seen, int | None], Decimal]] = {
    "total": lambda seen, best_of: Decimal(seen.total),
    "per_match": lambda seen, best_of: Decimal(seen.total) / len(seen.matches),
    "per_deal": lambda seen, best_of: Decimal(seen.total) / seen.deals,
    "best_nights": lambda seen, best_of: Decimal(sum(sorted(seen.nights)[::-1][:best_of])),
    "best_matches": lambda seen, best_of: Decimal(sum(sorted(seen.matches)[::-1][:best_of])),
}
"""Each method's figure made here, apart from ``tournaments.ranking`` and its SQL."""


def from_the_deals(season: Season) -> dict[tuple[str, int], tuple[int, Decimal, bool, int]]:
    """Each line's rank, score, qualification and nights, made here from the deals' scores
    alone (not from the match lines the leaderboard adds up)."""
    rows = (
        DealScore.objects.filter(
            counting_deals("deal__"), deal__match__table__club_night__season=season
        )
        .values(
            "deal__match__game",
            "player_id",
            "deal__match_id",
            "deal__match__table__club_night",
        )
        .annotate(points=Sum("score"), deals=Count("pk"), won=Count("pk", filter=Q(won=True)))
    )
    matches: dict[tuple[str, int], list[int]] = defaultdict(list)
    nights: dict[tuple[str, int], dict[object, int]] = defaultdict(lambda: defaultdict(int))
    deals: dict[tuple[str, int], int] = defaultdict(int)
    won: dict[tuple[str, int], int] = defaultdict(int)
    for r in rows:
        key = (r["deal__match__game"], r["player_id"])
        matches[key].append(r["points"])
        nights[key][r["deal__match__table__club_night"]] += r["points"]
        deals[key] += r["deals"]
        won[key] += r["won"]
    method, best_of, minimum = season.ranking, season.best_of, season.qualify_minimum
    counted = {"nights": lambda k: len(nights[k]), "matches": lambda k: len(matches[k])}
    counted["deals"] = lambda k: deals[k]
    figures = {}
    for key, points in matches.items():
        total = sum(points)
        seen = Seen(total, deals[key], points, list(nights[key].values()))
        figure = FIGURES[method](seen, best_of)
        figure = figure.quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)
        qualified = counted[season.qualify_by](key) >= minimum
        tie = {"total": total, "deals_won": won[key]}
        order = tuple(-tie[name] for name in engine.GAMES[key[0]].ranked_by())
        figures[key] = ((not qualified, -figure, *order), figure, qualified, len(nights[key]))
    lines = {}
    for game in {g for g, _p in figures}:
        board = sorted((v[0], k) for k, v in figures.items() if k[0] == game)
        for position, (order, key) in enumerate(board, start=1):
            rank = next(i for i, (o, _k) in enumerate(board, start=1) if o == order)
            _order, figure, qualified, n = figures[key]
            lines[key] = (rank, figure, qualified, n)
            assert rank <= position
    return lines


def stored(season: Season) -> dict[tuple[str, int], tuple[int, Decimal, bool, int]]:
    return {
        (game, player): (rank, figure, qualified, nights)
        for game, player, rank, figure, qualified, nights in SeasonStanding.objects.filter(
            season=season
        ).values_list("game", "player_id", "rank", "score", "qualified", "nights")
    }


def ranked(season: Season, method: str, best_of: int | None, minimum: int, commits) -> None:
    season.ranking, season.best_of, season.qualify_minimum = method, best_of, minimum
    with commits(execute=True):
        seasons.save_season(season)


@pytest.fixture
def league():
    """A season of 30 players over several club nights (some came more often than others)."""
    worlds.rebuilt_federation(1, 30, 900, 41, tables=3)
    season = Season.objects.annotate(n=Count("club_nights")).order_by("-n", "pk").first()
    assert season.club_nights.count() >= 5
    return season


@pytest.mark.slow
@pytest.mark.parametrize("method, best_of, minimum", METHODS)
def test_every_method_ranks_as_the_deals_alone_would_on_both_twins(
    league, method, best_of, minimum, django_capture_on_commit_callbacks
):
    ranked(league, method, best_of, minimum, django_capture_on_commit_callbacks)
    expected = from_the_deals(league)
    assert stored(league) == expected
    if minimum:
        assert {q for _r, _f, q, _n in expected.values()} == {True, False}  # both kinds
    with backend.using("portable"):
        SeasonStanding.objects.filter(season=league).delete()
        rebuild_season_standings(league.pk)
    assert stored(league) == expected


@pytest.mark.slow
def test_changing_the_method_re_ranks_the_stored_lines_and_checks_no_match(
    league, django_capture_on_commit_callbacks
):
    lines = set(MatchStanding.objects.values_list("pk", flat=True))
    checked = dict(Match.objects.values_list("pk", "checked_version"))
    before = stored(league)
    ranked(league, "best_nights", 2, 3, django_capture_on_commit_callbacks)
    after = stored(league)
    assert after != before and after == from_the_deals(league)
    assert set(MatchStanding.objects.values_list("pk", flat=True)) == lines  # nothing replayed
    assert dict(Match.objects.values_list("pk", "checked_version")) == checked


@pytest.mark.slow
def test_corrections_on_old_nights_leave_every_figure_as_a_clean_rebuild(
    league, django_user_model, django_capture_on_commit_callbacks
):
    ranked(league, "best_nights", 3, 4, django_capture_on_commit_callbacks)
    admin = django_user_model.objects.create_superuser("op", "op@example.org", "pw-2026-x")
    first_nights = league.club_nights.order_by("date")[:2]
    deals = list(Deal.objects.filter(match__table__club_night__in=first_nights, deleted_at=None))
    for deal in random.Random(40).sample(deals, 4):
        with django_capture_on_commit_callbacks(execute=True):
            if deal.match.status == Match.Status.FINISHED:
                corrections.reopen_match(deal.match, admin, "a deal entered twice")
            corrections.delete_deal(deal, admin, "entered twice")
    incremental = stored(league)
    assert incremental == from_the_deals(league)
    SeasonStanding.objects.filter(season=league).delete()
    rebuild_all(recheck=True)
    assert stored(league) == incremental


def test_a_score_by_matches_or_deals_rounds_half_away_from_zero():
    def played(total, matches, deals=1):
        return Played(total, deals, matches, [total], [total])

    assert score("per_match", None, played(2, 3)) == Decimal("0.667")
    assert score("per_match", None, played(-2, 3)) == Decimal("-0.667")
    assert score("per_deal", None, played(1, 1, deals=2000)) == Decimal("0.001")  # 0.0005
    assert score("per_deal", None, played(-1, 1, deals=2000)) == Decimal("-0.001")


def test_best_n_counts_the_best_and_all_of_a_player_with_fewer():
    five = Played(30, 20, 5, [10, -3, 12, 5, 6], [10, -3, 12, 5, 6])
    assert score("best_nights", 3, five) == 28
    assert score("best_matches", 9, five) == 30  # fewer than nine: every one
    rule = Rule("best_nights", 3, "nights", 6)
    assert explain(rule, five) == "best 3 of 5 club nights: 12 + 10 + 6; left out: 5, -3"
    with translation.override("ja"):
        assert explain(rule, five) == "5 例会のうち上位 3：12 + 10 + 6。数えない分：5, -3"
        assert rule.not_yet(five) == "規定未到達：5 / 6 例会"
    assert rule.not_yet(five) == "not yet qualified: 5 of 6 club nights"
    assert Rule("best_nights", 3, "nights", 5).not_yet(five) == ""


def test_a_player_below_the_minimum_ranks_after_every_qualified_player():
    rule = Rule("total", None, "matches", 2)
    lines = {
        "often": (Played(5, 10, 3, [5], [2, 2, 1]), 0),
        "once": (Played(90, 4, 1, [90], [90]), 0),
        "twice": (Played(5, 8, 2, [5], [3, 2]), 0),
    }
    assert rule.ranks("napoleon", lines) == {"often": 1, "twice": 1, "once": 3}
