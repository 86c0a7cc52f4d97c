"""Correcting, deleting and restoring deals: every version kept, standings recomputed,
the effect on the leaderboard shown, finished matches locked."""

import random
import re

import pytest
from django.db.models import F
from django.test import Client
from rest_framework.test import APIClient

import actions.after
import actions.deals
import actions.divisions
import actions.seasons
import engine
from actions import corrections
from scoring import leaderboard
from scoring.models import MatchStanding, Scope, SeasonStanding
from tests.conftest import NAPOLEON_SEATS, SEASON_LINE, at_the_same_moment, napoleon_deal
from tests.markup import squeezed
from tournaments.models import DealScore, Match, Move, Season, Table

pytestmark = pytest.mark.django_db

ROUNDS = 3
"""Races run a few times each: a circle of locks would show in one of them."""


@pytest.fixture
def entered(make_match, scorer, django_capture_on_commit_callbacks):
    match = make_match("napoleon", NAPOLEON_SEATS)
    with django_capture_on_commit_callbacks(execute=True):
        first = actions.deals.enter_deal(
            match, napoleon_deal(), user=scorer
        ).stored()  # aki +40, chika +20
        actions.deals.enter_deal(
            match,
            napoleon_deal(
                declarer="ben", adjutant="dai", points={"aki": 3, "ben": 9, "chika": 1, "dai": 7}
            ),
            user=scorer,
        ).stored()
    return match, first


def client_for(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def totals(match):
    return dict(MatchStanding.objects.filter(match=match).values_list("player__handle", "total"))


def test_a_correction_keeps_the_old_record_and_shows_the_effect(
    entered, scorer, league_admin, django_capture_on_commit_callbacks
):
    match, first = entered
    before = totals(match)
    corrected = napoleon_deal(
        adjutant="dai", points={"aki": 9, "ben": 3, "chika": 1, "dai": 7}
    )  # dai was the adjutant
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(scorer).put(
            f"/api/deals/{first.pk}/",
            {"record": corrected, "reason": "wrong adjutant"},
            format="json",
        )
    assert response.status_code == 200, response.json()
    effect = {e["player"]: e for e in response.json()["effect"]}
    assert (
        effect["chika"]["total_before"] == before["chika"]
        and effect["chika"]["total_after"] == before["chika"] - 50
    )
    assert effect["dai"]["total_after"] == before["dai"] + 50
    assert totals(match)["dai"] == before["dai"] + 50
    history = client_for(league_admin).get(f"/api/deals/{first.pk}/history/").json()
    assert [(h["action"], h["reason"], h["changed_by"]) for h in history] == [
        ("corrected", "wrong adjutant", "scorer")
    ]
    assert history[0]["record_before"]["adjutants"] == ["chika"]
    assert (
        client_for(scorer).get(f"/api/deals/{first.pk}/history/").status_code == 403
    )  # administrators only
    # The match page shows the correction and its effect, as stored with the version.
    page = Client()
    page.force_login(scorer)
    html = squeezed(page.get(f"/matches/{match.pk}/").content.decode())
    assert "History of changes" in html and "wrong adjutant" in html
    row = re.search(r"<tr><td>Dai</td>(.*?)</tr>", html).group(1)  # by display name
    numbers = [int(n) for n in re.findall(r">(-?\d+)<", row)]
    assert numbers[:2] == [effect["dai"]["total_before"], effect["dai"]["total_after"]]


def test_an_invalid_correction_is_refused_and_changes_nothing(entered, scorer):
    match, first = entered
    before = (totals(match), list(DealScore.objects.order_by("pk").values_list("score", flat=True)))
    bad = {**napoleon_deal(), "adjutants": ["zed"]}
    response = client_for(scorer).put(
        f"/api/deals/{first.pk}/", {"record": bad, "reason": "x"}, format="json"
    )
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "unknown_player"
    first.refresh_from_db()
    assert first.record["adjutants"] == ["chika"] and not first.versions.exists()
    assert (
        totals(match),
        list(DealScore.objects.order_by("pk").values_list("score", flat=True)),
    ) == before


def test_a_change_needs_a_reason(entered, scorer):
    _match, first = entered
    response = client_for(scorer).delete(f"/api/deals/{first.pk}/")
    assert response.status_code == 400 and response.json()["errors"][0]["path"] == "reason"


def test_delete_and_restore(entered, scorer, league_admin, django_capture_on_commit_callbacks):
    match, first = entered
    before = totals(match)
    with django_capture_on_commit_callbacks(execute=True):
        deleted = client_for(scorer).delete(f"/api/deals/{first.pk}/?reason=entered+twice")
    assert deleted.status_code == 200 and deleted.json()["deal"]["deleted_at"]
    assert totals(match)["aki"] == before["aki"] - 40
    assert (
        client_for(scorer)
        .post(f"/api/deals/{first.pk}/restore/", {"reason": "no"}, format="json")
        .status_code
        == 403
    )
    with django_capture_on_commit_callbacks(execute=True):
        restored = client_for(league_admin).post(
            f"/api/deals/{first.pk}/restore/", {"reason": "it was real"}, format="json"
        )
    assert restored.status_code == 200 and totals(match) == before
    actions_seen = [v.action for v in first.versions.all()]
    assert actions_seen == ["deleted", "restored"]
    # The next deal keeps counting from the numbers in use.
    assert actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored().number == 3


def test_a_finished_match_is_locked_until_an_administrator_reopens_it(
    make_match, scorer, league_admin
):
    comp = {
        "captured": {"aki": ["SK"], "ben": [], "chika": [], "dai": []},
        "hand_faces": {"aki": [], "ben": [], "chika": [], "dai": []},
    }
    match = make_match("comp13", NAPOLEON_SEATS, target=1)
    deal = actions.deals.enter_deal(match, comp, user=scorer).stored()
    fixed = {**comp, "captured": {"aki": [], "ben": ["SK"], "chika": [], "dai": []}}
    locked = client_for(scorer).put(
        f"/api/deals/{deal.pk}/", {"record": fixed, "reason": "ben took it"}, format="json"
    )
    assert locked.status_code == 409 and locked.json()["errors"][0]["code"] == "match_locked"
    why = {"reason": "ben took the king"}
    assert client_for(scorer).post(f"/api/matches/{match.pk}/reopen/", why).status_code == 403
    assert client_for(league_admin).post(f"/api/matches/{match.pk}/reopen/").status_code == 400
    assert (
        client_for(league_admin).post(f"/api/matches/{match.pk}/reopen/", why).json()["status"]
        == "open"
    )
    response = client_for(scorer).put(
        f"/api/deals/{deal.pk}/", {"record": fixed, "reason": "ben took it"}, format="json"
    )
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED  # the corrected deal ends the 1-deal match again


def test_a_correction_ranks_its_effect_as_the_leaderboard_does(
    make_match, scorer, django_capture_on_commit_callbacks
):
    """Comp-13 breaks a tie on points by deals won: the rank a correction stores in the
    deal's history is the one the season's leaderboard then shows."""
    hands = {"aki": [], "ben": [], "chika": [], "dai": []}
    match = make_match("comp13", NAPOLEON_SEATS, target=12)
    with django_capture_on_commit_callbacks(execute=True):
        # aki and ben 1 point each, the deal won by aki (the rulebook's tie-breaks)
        first = {"captured": {**hands, "aki": ["SK"], "ben": ["HK"]}, "hand_faces": hands}
        actions.deals.enter_deal(match, first, user=scorer).stored()
        second = actions.deals.enter_deal(
            match, {"captured": {**hands, "ben": ["SK"]}, "hand_faces": hands}, user=scorer
        ).stored()
    fixed = {"captured": {**hands, "chika": ["SK"]}, "hand_faces": hands}
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(scorer).put(
            f"/api/deals/{second.pk}/",
            {"record": fixed, "reason": "chika took the king"},
            format="json",
        )
    assert response.status_code == 200, response.json()
    effect = {e["player"]: e for e in response.json()["effect"]}
    # Before: ben 2 points leads alone. After: aki, ben and chika 1 point each; aki and
    # chika won a deal, ben none: ben is third, not first equal.
    assert effect["ben"]["rank_before"] == 1 and effect["ben"]["total_after"] == 1
    after = {p: e["rank_after"] for p, e in effect.items()}
    assert after == {"aki": 1, "ben": 3, "chika": 1, "dai": 4}
    board = SeasonStanding.objects.filter(season=match.table.club_night.season, game="comp13")
    assert dict(board.values_list("player__handle", "rank")) == after
    kept = match.deals.get(pk=second.pk).versions.get()
    assert kept.effect == response.json()["effect"]


def test_a_correction_in_a_season_in_divisions_shows_the_division_rank(
    make_match, table, players, scorer, django_capture_on_commit_callbacks
):
    """The rank a correction tells a player is the one the season page shows them: in
    their own division (the page's division board), or the season's for a player placed
    in none."""
    season = table.club_night.season
    top = ["emi", "fumi", "gen", "hana"]
    actions.divisions.set_divisions(
        season,
        ["A", "B"],
        {players[h].pk: "A" for h in top} | {players[h].pk: "B" for h in NAPOLEON_SEATS[:3]},
    )  # dai is in no division
    other = Table.objects.create(club_night=table.club_night, name="Table 2", scorer=scorer)
    strong = make_match("napoleon", top, at=other)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(2):  # emi and gen lead the season
            deal = napoleon_deal("emi", "gen", points={"emi": 9, "fumi": 3, "gen": 7, "hana": 1})
            actions.deals.enter_deal(strong, deal, user=scorer).stored()
        match = make_match("napoleon", NAPOLEON_SEATS)
        first = actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
        actions.deals.enter_deal(match, napoleon_deal("ben", "dai"), user=scorer).stored()
    b = season.divisions.get(name="B")

    def shown() -> dict[str, int]:
        """The ranks of B's board and dai's in the season, as the season page reads them."""
        (board, *_others) = leaderboard.boards(season, Scope.CLUB, division=b)
        ranks = {row.player.handle: row.rank for row in board.rows}
        everyone = SeasonStanding.objects.filter(season=season, game="napoleon")
        return ranks | {"dai": everyone.get(player__handle="dai").rank}

    before = shown()
    corrected = napoleon_deal(adjutant="dai", points={"aki": 9, "ben": 3, "chika": 1, "dai": 7})
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(scorer).put(
            f"/api/deals/{first.pk}/", {"record": corrected, "reason": "dai was"}, format="json"
        )
    assert response.status_code == 200, response.json()
    effect = {e["player"]: e for e in response.json()["effect"]}
    assert {p: e["rank_before"] for p, e in effect.items()} == before
    assert {p: e["rank_after"] for p, e in effect.items()} == shown()
    season_ranks = dict(
        SeasonStanding.objects.filter(season=season, game="napoleon").values_list(
            "player__handle", "rank"
        )
    )
    assert any(effect[p]["rank_after"] != season_ranks[p] for p in ("aki", "ben", "chika"))
    assert match.deals.get(pk=first.pk).versions.get().effect == response.json()["effect"]


def test_the_effect_is_the_stored_leaderboard_after_the_refresh(
    entered, scorer, django_capture_on_commit_callbacks
):
    """The effect reads the season's stored lines: before, with a deal whose refresh has
    not run yet counted; after, the lines the change's own transaction made, which the
    refresh once it commits leaves as they are."""
    match, first = entered
    season = match.table.club_night.season
    late = actions.deals.enter_deal(  # its refresh never ran: the stored lines lack it
        match,
        napoleon_deal("dai", "aki", points={"aki": 7, "ben": 3, "chika": 1, "dai": 9}),
        user=scorer,
    ).stored()
    late_scores = dict(DealScore.objects.filter(deal=late).values_list("player__handle", "score"))
    board = SeasonStanding.objects.filter(season=season, game="napoleon")

    def stored() -> dict[str, tuple[int, int]]:
        return {
            line.player.handle: (line.total, line.rank) for line in board.select_related("player")
        }

    kept = stored()
    corrected = napoleon_deal(adjutant="dai", points={"aki": 9, "ben": 3, "chika": 1, "dai": 7})
    with django_capture_on_commit_callbacks() as refresh:
        response = client_for(scorer).put(
            f"/api/deals/{first.pk}/", {"record": corrected, "reason": "dai was"}, format="json"
        )
    assert response.status_code == 200, response.json()
    effect = {e["player"]: e for e in response.json()["effect"]}
    before = {p: total + late_scores[p] for p, (total, _rank) in kept.items()}
    assert {p: e["total_before"] for p, e in effect.items()} == before
    moved = {"aki": 0, "ben": 0, "chika": -50, "dai": 50}  # dai, not chika, was the adjutant
    after = {p: (e["total_after"], e["rank_after"]) for p, e in effect.items()}
    assert {p: total for p, (total, _rank) in after.items()} == {
        p: before[p] + moved[p] for p in before
    }
    assert stored() == after  # made in the change's transaction
    match.refresh_from_db()
    assert match.checked_version == match.version  # the refresh has no match to check
    lines = sorted(board.values_list(*SEASON_LINE))
    assert len(refresh) > 0
    for callback in refresh:
        callback()
    assert stored() == after and sorted(board.values_list(*SEASON_LINE)) == lines


@pytest.mark.django_db(transaction=True)
def test_a_correction_and_the_seasons_closing_at_the_same_moment_both_finish(
    make_match, table, players, scorer, monkeypatch
):
    """Real transactions, each in a thread: a correction while its season closes, both
    bringing the season's standings up to date (two deals whose refresh never ran).
    Both take the season's row before any match's: one waits for the other, never in a
    circle (PostgreSQL would name a deadlock)."""
    season = table.club_night.season
    top = ["emi", "fumi", "gen", "hana"]
    places = {players[h].pk: "A" for h in top} | {players[h].pk: "B" for h in NAPOLEON_SEATS}
    actions.divisions.set_divisions(season, ["A", "B"], places)
    monkeypatch.setattr(actions.after, "refresh_match", lambda match_id: None)  # lost
    corrected = napoleon_deal(adjutant="dai", points={"aki": 9, "ben": 3, "chika": 1, "dai": 7})
    for round_ in range(ROUNDS):
        at = Table.objects.create(club_night=table.club_night, name=f"T{round_}", scorer=scorer)
        strong = make_match("napoleon", top, at=at)
        deal = napoleon_deal("emi", "gen", points={"emi": 9, "fumi": 3, "gen": 7, "hana": 1})
        actions.deals.enter_deal(strong, deal, user=scorer).stored()
        match = make_match("napoleon", NAPOLEON_SEATS, at=at)
        first = actions.deals.enter_deal(match, napoleon_deal(), user=scorer).stored()
        Season.objects.filter(pk=season.pk).update(closed_at=None, next_season=None)
        Move.objects.filter(season=season).delete()
        answers = at_the_same_moment(
            lambda first=first: corrections.correct_deal(first, corrected, scorer, "dai was"),
            lambda name=f"Next {round_}": actions.seasons.close_season(season, name),
        )
        assert not [a for a in answers if isinstance(a, BaseException)], answers
        _deal, effect = answers[0]
        board = SeasonStanding.objects.filter(season=season, game="napoleon")
        shown = leaderboard.shown_lines(season, "napoleon", [players[h].pk for h in NAPOLEON_SEATS])
        assert [(e.total_after, e.rank_after) for e in effect] == [
            (shown[players[h].pk].total, shown[players[h].pk].rank) for h in NAPOLEON_SEATS
        ]
        assert not Match.objects.exclude(checked_version=F("version")).exists()
        assert board.count() == 8


INHERITED = {"comp13": "provisional_dealer", "packing": "dealer"}
"""What a full-play deal after the first inherits from its match and plays from."""


def played(game: str, seed: int, state) -> dict:
    deal = engine.GAMES[game].random_deal(random.Random(seed), state)
    return {"game": game, "players": NAPOLEON_SEATS, **deal}


def three_deals(game: str) -> tuple[dict, dict, dict]:
    """A match's first two full-play deals as played, and another second deal that plays
    only from what it inherits: without that field, checked alone, it is refused."""
    rules = engine.GAMES[game]
    for seed in range(50):
        state = rules.new_match(list(NAPOLEON_SEATS), {}, None)
        first = played(game, seed, state)
        state.add(first, engine.check(first))
        second = played(game, seed, state)
        for other in range(50):
            bare = played(game, 1000 + other, state)
            bare.pop(INHERITED[game])
            if not engine.check(bare).valid:
                return first, second, bare
    raise AssertionError("no deal plays differently from what it inherits")


@pytest.mark.parametrize("game", sorted(INHERITED))
def test_a_full_play_second_deal_is_corrected_as_its_match_plays_it(
    make_match, scorer, game, django_capture_on_commit_callbacks
):
    """A correction checks the deal alone before its match: a Comp-13 deal after the first
    starts its 親決め with the last winner as 仮親, a Packing deal with the next dealer's
    left.  A correction sent as the pages and the API send it, without that field, is
    checked as the match's second deal, not as a first one (it was refused), and stored
    as sent: the match gives each deal what it inherits."""
    first, second, corrected = three_deals(game)
    match = make_match(game, NAPOLEON_SEATS)
    stored = [actions.deals.enter_deal(match, d, user=scorer).stored() for d in (first, second)]
    with django_capture_on_commit_callbacks(execute=True):
        deal, _effect = corrections.correct_deal(stored[1], corrected, scorer, "typo")
    assert INHERITED[game] not in deal.record  # the match passes it on (deleting deal 1…)
    deals = [d.record for d in match.deals.order_by("number")]
    checked = engine.check_match({"game": game, "players": NAPOLEON_SEATS, "deals": deals})
    assert deals[1] == deal.record and checked.valid
    assert dict(deal.scores.values_list("player__handle", "score")) == checked.deals[1].scores
