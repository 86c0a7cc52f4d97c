"""A player's statistics (issue 41, 2): every game's figures, on matches the engine plays
(each match's first deal kept as a full play), equal a direct count over the season's
deals, after random corrections, on both twins of the season totals and after a clean
rebuild; the player page, the API and the export show them, and a private season's
only to its club."""

from __future__ import annotations

import csv
import datetime as dt
import io
import random
from collections import defaultdict
from collections.abc import Callable

import pytest
from django.test import Client
from django.utils.html import escape

import actions.deals
import engine
from actions import rounds
from scoring import season_totals
from scoring.models import SeasonStanding
from scoring.players import figures, sums
from scoring.rebuild import rebuild_all
from scoring.statistics_page import page, paths
from tests.conftest import client_of, member_of
from tests.markup import squeezed
from tests.scoring.derived import derived, forget, take_out_last_deal
from tournaments.games import LEAGUE_GAMES, league_game
from tournaments.games.base import demo_deals
from tournaments.models import Club, ClubNight, Match, Membership, Player, Season
from tournaments.records import match_envelope

pytestmark = pytest.mark.django_db

OPEN_ENDED = {"napoleon": 4, "rettler": 3, "bhabhi": 4, "1234": 3}
"""Deals a match of a game without an end of its own is played for (its target)."""


def pct(part: int, whole: int) -> int | None:
    return round(100 * part / whole) if whole else None


def avg(total: int, count: int, places: int = 1) -> float | None:
    return round(total / count, places) if count else None


def played(games: list[str], run_tasks) -> tuple[Season, list[Player]]:
    """A season of ``games``, a club night each of two rounds of ten players, every match
    played by the engine; then random corrections, as the pages make them: the last deal
    of a third of the matches taken out (a finished match reopened first), its tasks run
    (``run_tasks``: ``django_capture_on_commit_callbacks``)."""
    club = Club.objects.create(name="Numbers", slug="numbers")
    people = [
        Player.objects.create(club=club, handle=f"p{i}", display_name=f"Player {i}")
        for i in range(10)
    ]
    season = Season.objects.create(club=club, name="Spring", games=games)
    for day, game in enumerate(games):
        night = ClubNight.objects.create(season=season, date=dt.date(2026, 4, 1 + day))
        for r in range(2):
            round_ = rounds.draw_next_round(
                night,
                game=game,
                method="balanced",
                deals=OPEN_ENDED.get(game),
                players=[p.pk for p in people],
                seed=10 * day + r,
            ).round
            for i, match in enumerate(Match.objects.filter(table__round=round_)):
                handles = [p.handle for p in match.seated_players()]
                league = league_game(game)
                for record in demo_deals(
                    league, 100 * day + 10 * r + i, handles, match.rules, match.target
                ):
                    actions.deals.enter_deal(match, record).stored()
    rebuild_all()
    rng = random.Random(41)
    matches = list(Match.objects.filter(table__club_night__season=season))
    for match in rng.sample(matches, len(matches) // 3 or 1):
        with run_tasks(execute=True):
            take_out_last_deal(match, None)
    return season, people


@pytest.fixture
def season(django_capture_on_commit_callbacks):
    return played(list(LEAGUE_GAMES), django_capture_on_commit_callbacks)


# -- the direct count ----------------------------------------------------------------------


def direct(season: Season) -> dict[tuple[str, int], dict[str, int | float | None]]:
    """Every player's figures in each game, by walking the season's deals: each match's
    active deals checked by the engine, then each statistic counted over all of a
    player's deals and matches in the game."""
    deals: dict[tuple[str, int], list[tuple]] = defaultdict(list)
    matches: dict[tuple[str, int], list[tuple]] = defaultdict(list)
    for match in Match.objects.filter(table__club_night__season=season):
        seated = list(match.seated_players())
        ids = {p.handle: p.pk for p in seated}
        records = [d.record for d in match.deals.filter(deleted_at__isnull=True).order_by("number")]
        envelope = match_envelope(match, [p.handle for p in seated])
        result = engine.check_match({**envelope, "deals": records})
        finished = match.outcome(result)[0] and any(s.deals for s in result.standings)
        worst = max(s.rank for s in result.standings)
        per_player: dict[str, list[tuple]] = defaultdict(list)
        for record, outcome in zip(records, result.deals, strict=True):
            if outcome.valid:
                for handle in outcome.scores:
                    per_player[handle].append((record, outcome, handle))
        for s in result.standings:
            mine = per_player[s.player]
            if mine:  # a line counts once the player has a deal scored in the match
                key = (match.game, ids[s.player])
                deals[key] += mine
                matches[key].append(
                    (finished, s.rank, len(result.standings), worst, s.deals_won, result, mine)
                )
    out = {}
    for key, mine in matches.items():
        game, _player = key
        done = [m for m in mine if m[0]]
        scores = [o.scores[h] for _r, o, h in deals[key]]
        figures_of = {
            "matches": len(mine),
            "matches_won": sum(1 for m in done if m[1] == 1),
            "average_rank": avg(sum(m[1] for m in done), len(done), 2),
            "top_half": pct(sum(1 for m in done if m[1] * 2 <= m[2]), len(done)),
            "last_place": pct(sum(1 for m in done if 1 < m[1] == m[3]), len(done)),
            "deals": len(scores),
            "deals_won": pct(sum(m[4] for m in mine), len(scores)),
            "points_per_deal": avg(sum(scores), len(scores)),
        }
        figures_of.update(GAMES[game](deals[key], mine))
        out[key] = figures_of
    return out


def declarer(low: int, high: int) -> Callable:
    def count(deals, matches):
        n: dict[str, int] = defaultdict(int)
        for record, outcome, h in deals:
            score, d = outcome.scores[h], outcome.details
            count = record["declaration"]["count"]
            band = "low" if count <= low else "high" if count >= high else "middle"
            if record["declaration"]["player"] == h:
                n["declared"] += 1
                n["made"] += score > 0
                n["counts"] += count
                n[band] += 1
                n[band + " made"] += score > 0
                n["found"] += len(d["adjutants"]) > 0
                n["all taken"] += d["outcome"] == "all_taken"
                n["declarer points"] += score
            elif h in d["adjutants"]:
                n["adjutant"] += 1
                n["adjutant won"] += score > 0
                n["adjutant points"] += score
            else:
                n["coalition"] += 1
                n["coalition won"] += score > 0
                n["coalition points"] += score
            if "plays" in record or "tricks" in record or "trick_winners" in d:
                n["full"] += 1
                n["tricks"] += d["trick_winners"].count(h)
        return {
            "declared": n["declared"],
            "made": pct(n["made"], n["declared"]),
            "average_count": avg(n["counts"], n["declared"]),
            **{f"made_{b}": pct(n[b + " made"], n[b]) for b in ("low", "middle", "high")},
            "adjutant_found": pct(n["found"], n["declared"]),
            "all_taken": n["all taken"],
            "declarer_points": avg(n["declarer points"], n["declared"]),
            "adjutant": n["adjutant"],
            "adjutant_won": pct(n["adjutant won"], n["adjutant"]),
            "adjutant_points": avg(n["adjutant points"], n["adjutant"]),
            "coalition_won": pct(n["coalition won"], n["coalition"]),
            "coalition_points": avg(n["coalition points"], n["coalition"]),
            "tricks": avg(n["tricks"], n["full"]),
        }

    return count


def comp13(deals, matches):
    n: dict[str, int] = defaultdict(int)
    for record, outcome, h in deals:
        captured = (outcome.details.get("captured") or record["captured"])[h]
        cards = [engine.cards.parse_card(c) for c in captured]
        for rank in "A 10 J Q K".split():
            if sum(1 for c in cards if c.rank == rank) == 4:
                n["kings" if rank == "K" else "fours"] += 1
        n["faces"] += sum(1 for c in cards if not c.is_joker)
        n["jokers"] += sum(1 for c in cards if c.is_joker)
        penalty = outcome.details["penalties"][h]
        n["penalty"] += penalty
        n["clean"] += penalty == 0
        mine, all_ = outcome.scores[h], list(outcome.scores.values())
        n["place"] += 1 + sum(1 for x in all_ if x > mine)
        n["last"] += mine == min(all_) and mine != max(all_)
    d = len(deals)
    return {
        "faces": avg(n["faces"], d),
        "jokers": n["jokers"],
        "fours": n["fours"],
        "four_kings": n["kings"],
        "penalty": avg(n["penalty"], d),
        "clean": pct(n["clean"], d),
        "deal_place": avg(n["place"], d, 2),
        "deal_last": pct(n["last"], d),
    }


def packing(deals, matches):
    from engine.games.packing import pack_value

    n: dict[str, int] = defaultdict(int)
    for record, outcome, h in deals:
        d = outcome.details
        side = [i for i, s in enumerate(d["sides"]) if h in s][0]
        held = [
            sorted(engine.cards.parse_card(c).code for c in p)
            for p in d.get("packs", record.get("packs"))[h]
        ]
        off = [sorted(p) for p in d["thrown_off"][side]]
        thrown = []
        for p in held:
            if p in off:
                off.remove(p)
                thrown.append(p)
        worth = [pack_value([engine.cards.parse_card(c) for c in p]) for p in held]
        n["packs"] += len(held)
        n["worth"] += sum(worth)
        n["thrown"] += len(thrown)
        n["thrown worth"] += sum(
            pack_value([engine.cards.parse_card(c) for c in p]) for p in thrown
        )
        n["thrown deals"] += len(thrown) > 0
        others = [x for i, x in enumerate(d["side_scores"]) if i != side]
        n["margin"] += d["side_scores"][side] - max(others)
        if len(d["sides"][side]) > 1:
            n["partnered"] += 1
            n["partnered won"] += d["side_scores"][side] == max(d["side_scores"])
    d_ = len(deals)
    return {
        "packs": avg(n["packs"], d_),
        "pack_points": avg(n["worth"], d_),
        "thrown": pct(n["thrown"], n["packs"]),
        "thrown_points": avg(n["thrown worth"], d_),
        "thrown_deals": pct(n["thrown deals"], d_),
        "margin": avg(n["margin"], d_),
        "partnered": n["partnered"],
        "partnered_won": pct(n["partnered won"], n["partnered"]),
    }


def twentytwo(deals, matches):
    n: dict[str, int] = defaultdict(int)
    for record, outcome, h in deals:
        d = outcome.details
        n["lost"] += h in d["losers"]
        n["penalty"] += -outcome.scores[h]
        n["shared"] += h in d["losers"] and len(d["losers"]) >= 2
        n["bought"] += h in d["buy_back"]
        if record["dealer"] == h:
            n["dealt"] += 1
            n["dealt lost"] += h in d["losers"]
        if "trick_winners" in d:
            n["full"] += 1
            n["tricks"] += d["trick_winners"].count(h)
    h = deals[0][2]
    out = sum(1 for m in matches if h in m[5].details.get("eliminated", {}))
    return {
        "lost": pct(n["lost"], len(deals)),
        "penalty": avg(n["penalty"], len(deals)),
        "shared": n["shared"],
        "bought": n["bought"],
        "dealt_lost": pct(n["dealt lost"], n["dealt"]),
        "eliminated": pct(out, len(matches)),
        "tricks": avg(n["tricks"], n["full"]),
    }


def bhabhi(deals, matches):
    n: dict[str, int] = defaultdict(int)
    for m in matches:
        games = m[6]
        n["clean"] += all(o.details["bhabhi"] != h for _r, o, h in games)
        for (_r, a, h), (_r2, b, _h2) in zip(games, games[1:], strict=False):
            n["again"] += a.details["bhabhi"] == h and b.details["bhabhi"] == h
    for record, outcome, h in deals:
        n["bhabhi"] += outcome.details["bhabhi"] == h
        if "out" in record or "hands" in record:
            out = outcome.details["out"]
            n["ordered"] += 1
            n["first"] += out[0] == h
            n["place"] += out.index(h) + 1 if h in out else len(out) + 1
    return {
        "bhabhi": n["bhabhi"],
        "bhabhi_rate": pct(n["bhabhi"], len(deals)),
        "first_out": pct(n["first"], n["ordered"]),
        "place": avg(n["place"], n["ordered"], 2),
        "again": n["again"],
        "clean_matches": pct(n["clean"], len(matches)),
    }


def onetwothreefour(deals, matches):
    n: dict[str, int] = defaultdict(int)
    for record, outcome, h in deals:
        d = outcome.details
        n["dropped"] += h in d["dropped"]
        n["first"] += d["dropped"][:1] == [h]
        n["cards"] += len(d["hands_left"][h])
        n["value"] += d["hand_sums"][h]
        n["won"] += d["winner"] == h
        n["pot"] += outcome.scores[h] if d["winner"] == h else 0
        if record["dealer"] == h:
            n["dealt"] += 1
            n["dealt won"] += d["winner"] == h
    return {
        "dropped": pct(n["dropped"], len(deals)),
        "first_dropped": n["first"],
        "cards_left": avg(n["cards"], len(deals)),
        "hand_value": avg(n["value"], len(deals)),
        "dealt_won": pct(n["dealt won"], n["dealt"]),
        "pot": avg(n["pot"], sum(m[4] for m in matches)),
    }


def comrade(deals, matches):
    n: dict[str, int] = defaultdict(int)
    for record, outcome, h in deals:
        d = outcome.details
        bid = {s: k for s, k in d["bids"][h].items() if k > 0}
        won = {s: k for s, k in d["tricks_won"][h].items() if k > 0}
        n["bids"] += sum(bid.values())
        n["met"] += bid == won
        n["tricks"] += sum(won.values())
        n[
            d["outcome"]
            if d["outcome"] in ("success", "short", "wrong_suit", "too_many")
            else "bidding"
        ] += 1
        if record["dealer"] == h:
            n["dealt"] += 1
            n["dealt won"] += d["success"]
    done = [m for m in matches if m[0]]
    titled = sum(1 for m in done if m[5].details.get("title") in ("Excellent", "Great"))
    return {
        "bids": avg(n["bids"], len(deals)),
        "bids_met": pct(n["met"], len(deals)),
        "tricks": avg(n["tricks"], len(deals)),
        "dealt_won": pct(n["dealt won"], n["dealt"]),
        **{k: pct(n[k], len(deals)) for k in ("short", "wrong_suit", "too_many", "bidding")},
        "titled": pct(titled, len(done)),
    }


GAMES: dict[str, Callable] = {
    "napoleon": declarer(15, 18),
    "rettler": declarer(29, 35),
    "comp13": comp13,
    "packing": packing,
    "twentytwo": twentytwo,
    "bhabhi": bhabhi,
    "1234": onetwothreefour,
    "comrade": comrade,
}


def stored(season: Season) -> dict[tuple[str, int], dict[str, int | float | None]]:
    return {
        (line.game, line.player_id): {s.key: value for s, value in figures(line)}
        for line in SeasonStanding.objects.filter(season=season)
    }


# -- the tests ------------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(LEAGUE_GAMES))
def test_every_statistic_of_the_game_equals_a_direct_count(
    game, django_capture_on_commit_callbacks
):
    season, _people = played([game], django_capture_on_commit_callbacks)
    expected = direct(season)
    got = stored(season)
    assert set(got) == set(expected) and len(got) == 10
    for key, figures_of in expected.items():
        assert got[key] == figures_of, key
    # The matches give the figures something to count: not all empty.
    values = [v for f in got.values() for v in f.values()]
    assert sum(1 for v in values if v not in (None, 0)) > len(values) / 3
    if game in ("napoleon", "rettler", "twentytwo"):  # the full plays' trick figures
        assert any(f["tricks"] for f in got.values())


def test_every_game_has_its_direct_count():
    assert set(GAMES) == set(LEAGUE_GAMES)


def test_both_twins_and_a_clean_rebuild_give_the_same_statistics(season):
    season, _people = season
    after_corrections = derived(SeasonStanding)
    forget()
    rebuild_all()
    assert derived(SeasonStanding) == after_corrections
    SeasonStanding.objects.filter(season=season).delete()
    season_totals._season_in_python(season)  # the demo's twin, on the same lines
    assert derived(SeasonStanding) == after_corrections


def test_the_page_the_api_and_the_export_show_them_to_readers_alone(season, django_user_model):
    season, people = season
    player = people[0]
    line = SeasonStanding.objects.get(season=season, game="napoleon", player=player)
    member = member_of(season.club, django_user_model, "numbers-member", Membership.Role.MEMBER)
    page = squeezed(Client().get(f"/players/{player.pk}/").content.decode())
    assert "Declarations made" not in page  # a private season: nothing for a stranger
    client = Client()
    client.force_login(member)
    page = squeezed(client.get(f"/players/{player.pk}/").content.decode())
    for statistic in league_game("napoleon").all_statistics():
        value = statistic.shown(sums(line))
        assert f"<span>{escape(statistic.label)}</span><strong>{value}</strong>" in page
        assert f"<dd>{escape(statistic.definition)}</dd>" in page
    api = client_of(member).get(f"/api/standings/?season={season.pk}&player={player.pk}")
    assert api.status_code == 200
    rows = {r["game"]: r["statistics"] for r in api.json()["results"]}
    assert rows["napoleon"] == {s.key: v for s, v in figures(line)}
    assert set(rows) == set(LEAGUE_GAMES)
    assert Client().get(f"/api/standings/?season={season.pk}&player={player.pk}").status_code == 404
    export = client.get(f"/seasons/{season.pk}/statistics.csv")
    text = b"".join(export.streaming_content).decode("utf-8-sig")
    table = list(csv.reader(io.StringIO(text)))
    mine = {
        row[3]: row[4]
        for row in table[1:]
        if row[2] == player.display_name and row[0] == "Napoleon"
    }
    for statistic, value in figures(line):
        name = f"{statistic.label} (%)" if statistic.percent else str(statistic.label)
        assert mine[name] == ("" if value is None else str(value))
    assert Client().get(f"/seasons/{season.pk}/statistics.csv").status_code == 404
    for fmt, starts in (("xlsx", b"PK"), ("pdf", b"%PDF")):
        answer = client.get(f"/seasons/{season.pk}/statistics.{fmt}")
        assert answer.status_code == 200
        body = b"".join(answer.streaming_content) if answer.streaming else answer.content
        assert body.startswith(starts), fmt


def test_the_documents_page_lists_every_statistic_as_the_code_defines_it():
    for language, path in paths().items():
        assert path.read_text(encoding="utf-8") == page(language), (
            f"{path.name} is stale: run `python manage.py statistics_page`"
        )
    english = paths()["en"].read_text(encoding="utf-8")
    for league in LEAGUE_GAMES.values():
        for statistic in league.all_statistics():
            assert f"`{statistic.key}` | {statistic.definition} |" in english


def test_a_rate_is_never_called_a_count_in_japanese():
    """A rate is shown as "0%": its Japanese name says what is won or lost, not how many
    times (「副官で勝った回数 0%」 on a player's page read as a count with a per cent)."""
    from django.utils import translation

    from tournaments.games import LEAGUE_GAMES

    with translation.override("ja"):
        rates = {
            s.key: str(s.label)
            for g in LEAGUE_GAMES.values()
            for s in g.all_statistics()
            if s.percent
        }
    assert rates["adjutant_won"] == "副官での勝ち"
    assert [k for k, label in rates.items() if label.endswith(("回数", "数"))] == []
