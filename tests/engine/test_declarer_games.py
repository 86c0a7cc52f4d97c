"""Napoleon and Rettler summary records: checks and the appendix C score tables."""

import csv
from pathlib import Path

import pytest

import engine

DATA = Path(engine.__file__).parent / "data"
NAMES = "ABCDEFGH"


def rows(name):
    with open(DATA / name, encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def summary(game, n, count, army_points, adjutants, *, allowed=None, discarded=0, trump="spades"):
    """A summary record: A declares; ``adjutants`` (B, C…) hold the army's other cards."""
    players = list(NAMES[:n])
    total = 20 if game == "napoleon" else 40
    army = ["A", *adjutants]
    points = dict.fromkeys(players, 0)
    share, extra = divmod(army_points, len(army))
    for i, p in enumerate(army):
        points[p] = share + (1 if i < extra else 0)
    coalition = [p for p in players if p not in army]
    rest = total - army_points - discarded
    for i, p in enumerate(coalition):
        points[p] = rest // len(coalition) + (1 if i < rest % len(coalition) else 0)
    declaration = {"player": "A", "count": count, "trump": trump}
    if allowed is not None:
        declaration["adjutants"] = allowed
    return {
        "game": game,
        "players": players,
        "declaration": declaration,
        "adjutant_cards": ["SA", "HJ"][: max(len(adjutants), 1)] if game == "rettler" else ["SA"],
        "adjutants": list(adjutants),
        "point_cards": points,
        "discarded_point_cards": discarded,
    }


def scored(record):
    result = engine.check(record)
    assert result.valid, [e.to_dict() for e in result.errors]
    assert sum(result.scores.values()) == 0
    return result


def napoleon_cases():
    for row in rows("napoleon_scores.csv"):
        n = int(row["players"])
        for count in range(int(row["declared_min"]), int(row["declared_max"]) + 1):
            if row["taken_min"] == "win":
                takens = [count]
            else:
                high = int(row["taken_max"]) if row["taken_max"] else count - 1
                takens = range(int(row["taken_min"]), high + 1)
            for taken in takens:
                yield pytest.param(row, n, count, taken, id=f"{n}p-{count}-took{taken}")


@pytest.mark.parametrize(("row", "n", "count", "taken"), list(napoleon_cases()))
def test_every_napoleon_table_cell_is_scored_as_printed(row, n, count, taken):
    lone = scored(summary("napoleon", n, count, taken, []))
    assert lone.scores["A"] == int(row["lone_napoleon"])
    assert lone.scores[NAMES[n - 1]] == int(row["lone_coalition_each"])
    helped = scored(summary("napoleon", n, count, taken, ["B"]))
    assert helped.scores["A"] == int(row["napoleon"])
    assert helped.scores["B"] == int(row["adjutant"])
    assert helped.scores[NAMES[n - 1]] == int(row["coalition_each"])
    won = row["taken_min"] == "win"
    assert helped.details["outcome"] == ("declarer_win" if won else "coalition_win")
    assert helped.details["multiplier"] == abs(int(row["lone_napoleon"])) // 60


def rettler_bands():
    minimum = {(4, 1): 25, (5, 1): 20, (6, 2): 25, (7, 2): 23, (8, 2): 20}
    for band in rows("rettler_multiplier.csv"):
        for (n, allowed), lowest in minimum.items():
            label = f"{band['declared_min'] or '~'}-{band['declared_max']}"
            yield pytest.param(n, allowed, lowest, band, id=f"{n}p-{allowed}adj-{label}")


@pytest.mark.parametrize(("n", "allowed", "lowest", "band"), list(rettler_bands()))
def test_every_rettler_table_cell_is_scored_as_printed(n, allowed, lowest, band):
    """Each declared count of a C.4 row, each taken count of its bands, 0..allowed adjutants."""
    win_cells = {(r["players"], r["multiplier"]): r for r in rows("rettler_win_scores.csv")}
    loss_cells = {(r["players"], r["multiplier"]): r for r in rows("rettler_loss_scores.csv")}
    low = int(band["declared_min"] or 0)
    for count in range(max(low, lowest), int(band["declared_max"]) + 1):
        cases = [(win_cells, count, int(band["win_multiplier"]))]
        for k in (1, 2, 4, 16):
            start = int(band[f"loss_x{k}_taken_min"])
            end = int(band[f"loss_x{k}_taken_max"] or count - 1)
            cases += [(loss_cells, t, k) for t in range(start, min(end, count - 1) + 1)]
        for table, taken, k in cases:
            cells = table[(str(n), str(k))]
            for found in range(allowed + 1):
                adjutants = list("BC"[:found])
                result = scored(summary("rettler", n, count, taken, adjutants, allowed=allowed))
                group = found + 1
                where = f"declared {count}, took {taken}, {found} adjutant(s)"
                assert result.details["multiplier"] == k, where
                assert result.scores["A"] == int(cells[f"{group}R"]), where
                for a in adjutants:
                    assert result.scores[a] == int(cells[f"{group}A"]), where
                assert result.scores[NAMES[n - 1]] == int(cells[f"{group}C"]), where


# -- worked examples of appendix C ----------------------------------------------------------


def test_c1_example_four_players_declared_16_won():
    result = scored(summary("napoleon", 4, 16, 17, ["B"]))
    assert result.scores == {"A": 80, "B": 40, "C": -60, "D": -60}


def test_c1_2_example_five_players_declared_15_took_7_is_a_x2_loss():
    result = scored(summary("napoleon", 5, 15, 7, ["B"]))
    assert result.scores == {"A": -90, "B": -30, "C": 40, "D": 40, "E": 40}
    assert result.details["multiplier"] == 2


def test_a_five_player_two_adjutant_rettler_count_is_converted_with_table_3_3():
    # 35 with two adjutants ranks with 30 with one: the 30-34 row, x2 on a win (3R/3A/3C).
    result = scored(summary("rettler", 5, 35, 36, ["B", "C"], allowed=2))
    assert result.details["multiplier"] == 2
    assert result.scores == {"A": 60, "B": 30, "C": 30, "D": -60, "E": -60}


def test_five_player_rettler_must_say_how_many_adjutants_the_declaration_allows():
    record = summary("rettler", 5, 30, 30, ["B"])
    codes = [(e.code, e.path) for e in engine.check(record).errors]
    assert codes == [("missing_field", "declaration.adjutants")]


# -- 全付け -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "n", "allowed", "adjutants", "expected"),
    [
        ("napoleon", 4, None, ["B"], {"A": -120, "B": -120, "C": 120, "D": 120}),
        ("napoleon", 3, None, [], {"A": -240, "B": 120, "C": 120}),
        ("rettler", 6, None, ["B", "C"], {"A": -80, "B": -80, "C": -80, "D": 80, "E": 80, "F": 80}),
        ("rettler", 5, 1, ["B"], {"A": -120, "B": -120, "C": 80, "D": 80, "E": 80}),
    ],
)
def test_taking_every_point_card_loses_240_split_evenly(game, n, allowed, adjutants, expected):
    total = 20 if game == "napoleon" else 40
    result = scored(summary(game, n, total - 4, total, adjutants, allowed=allowed))
    assert result.details["outcome"] == "all_taken"
    assert result.details["multiplier"] is None
    assert result.scores == expected


def test_all_taken_by_a_lone_eight_player_rettler_uses_the_books_63_rounding():
    result = scored(summary("rettler", 8, 30, 40, []))
    assert result.scores["A"] == -252
    assert all(result.scores[p] == 36 for p in "BCDEFGH")


@pytest.mark.parametrize(("game", "n", "total"), [("napoleon", 4, 20), ("rettler", 6, 40)])
def test_declaring_the_maximum_and_taking_everything_is_a_win(game, n, total):
    result = scored(summary(game, n, total, total, ["B"]))
    assert result.details["outcome"] == "declarer_win"
    assert result.details["multiplier"] == 16


# -- consistency checks of summary records ---------------------------------------------------


def errors(record):
    return [(e.code, e.path) for e in engine.check(record).errors]


def test_point_cards_must_add_up_to_all_point_cards():
    record = summary("napoleon", 4, 15, 16, ["B"])
    record["point_cards"]["D"] += 1
    assert errors(record) == [("point_cards_total", "point_cards")]
    rettler = summary("rettler", 6, 28, 30, ["B", "C"], discarded=2)
    rettler["discarded_point_cards"] = 0
    assert errors(rettler) == [("point_cards_total", "point_cards")]


def test_discarded_point_cards_cannot_exceed_the_widow():
    record = summary("napoleon", 5, 12, 12, ["B"], discarded=3)
    assert engine.check(record).valid
    record["discarded_point_cards"] = 4
    record["point_cards"]["C"] -= 1
    assert ("out_of_range", "discarded_point_cards") in errors(record)


@pytest.mark.parametrize(
    ("game", "n", "count", "allowed"),
    [
        ("napoleon", 3, 15, None),
        ("napoleon", 4, 13, None),
        ("napoleon", 5, 11, None),
        ("napoleon", 4, 21, None),
        ("rettler", 4, 24, None),
        ("rettler", 5, 19, 1),
        ("rettler", 5, 29, 2),
        ("rettler", 6, 24, None),
        ("rettler", 7, 22, None),
        ("rettler", 8, 19, None),
        ("rettler", 8, 41, None),
    ],
)
def test_declarations_outside_the_books_range_are_refused(game, n, count, allowed):
    record = summary(game, n, count, 0, [], allowed=allowed)
    assert ("count_out_of_range", "declaration.count") in errors(record)


def test_adjutants_are_other_seated_players_and_not_more_than_allowed():
    record = summary("napoleon", 4, 15, 16, ["B"])
    record["adjutants"] = ["B", "C"]
    assert ("too_many_adjutants", "adjutants") in errors(record)
    record["adjutants"] = ["A"]
    assert ("declarer_as_adjutant", "adjutants[0]") in errors(record)
    record["adjutants"] = ["Q"]
    assert ("unknown_player", "adjutants[0]") in errors(record)


def test_3_3_5_a_summary_may_name_more_cards_than_adjutants_formally():
    """Footnote 8: 「♠A, ♠J, ♡J, ♣J の様に形式的に 4 種の副官カードを指名しても良く」;
    the declarer's hand, which a summary cannot show, may hold the extra cards."""
    record = summary("rettler", 6, 30, 30, ["B"])
    record["adjutant_cards"] = ["SA", "SJ", "HJ", "CJ"]
    assert errors(record) == []
    record = summary("napoleon", 4, 15, 16, ["B"])
    record["adjutant_cards"] = ["SA", "HJ"]
    assert errors(record) == []


@pytest.mark.parametrize(("game", "n"), [("napoleon", 4), ("napoleon", 6), ("rettler", 4)])
def test_3_3_5_a_summary_naming_more_cards_than_a_hand_can_hold_back_is_a_foul(game, n):
    rules = engine.GAMES[game]
    allowed = rules.adjutant_choices(n)[0]
    distinct = (rules.hand_size(n) + allowed) // rules.deck()["SA"]
    adjutants = list(NAMES[1 : 1 + allowed])
    record = summary(game, n, rules.minimum_count(n, allowed), 0, adjutants)
    named = [c for c in sorted(rules.deck()) if c not in ("JK", "BR")]
    record["adjutant_cards"] = named[:distinct]
    assert ("too_many_adjutant_cards", "adjutant_cards") not in errors(record)
    record["adjutant_cards"] = named[: distinct + 1]
    assert ("too_many_adjutant_cards", "adjutant_cards") in errors(record)


def test_an_unknown_trump_is_named():
    record = summary("napoleon", 4, 15, 16, ["B"], trump="stars")
    assert errors(record) == [("unknown_trump", "declaration.trump")]


def test_a_record_with_some_full_play_fields_needs_all_of_them():
    record = summary("napoleon", 4, 15, 16, ["B"])
    record["tricks"] = []
    assert set(errors(record)) >= {("missing_field", "hands"), ("missing_field", "widow")}


def test_a_napoleon_match_is_open_ended_and_sums_the_deals():
    deals = [summary("napoleon", 4, 15, 16, ["B"]), summary("napoleon", 4, 16, 10, [])]
    result = engine.check_match({"game": "napoleon", "players": list("ABCD"), "deals": deals})
    assert result.valid and not result.finished and result.winner is None
    totals = {s.player: s.total for s in result.standings}
    expected = {p: sum(engine.check(d).scores[p] for d in deals) for p in "ABCD"}
    assert totals == expected
    assert sum(totals.values()) == 0
