"""Full-deal replay of Napoleon and Rettler records (docs/deal-records.md, "Full play")."""

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.cards import parse_card
from engine.deal import play_match
from engine.games.simulate import random_full_deal
from engine.registry import GAMES

SUMMARY_KEYS = ("game", "players", "declaration", "adjutant_cards")


def deal(game="napoleon", n=4, seed=1, **kw):
    return random_full_deal(GAMES[game], [f"P{i}" for i in range(n)], random.Random(seed), **kw)


def codes(record):
    return [(e.code, e.path) for e in engine.check(record).errors]


def summary_of(record, result):
    out = {k: record[k] for k in SUMMARY_KEYS}
    out["adjutants"] = result.details["adjutants"]
    out["point_cards"] = result.details["point_cards"]
    discarded = sum(1 for c in record["discards"] if parse_card(c).is_face)
    out["discarded_point_cards"] = discarded
    return out


@settings(max_examples=60, deadline=None)
@given(
    game=st.sampled_from(["napoleon", "rettler"]),
    seed=st.integers(0, 10**9),
    data=st.data(),
)
def test_random_legal_deals_replay_score_zero_sum_and_match_their_summary(game, seed, data):
    n = data.draw(st.sampled_from(sorted(GAMES[game].player_counts)))
    record = deal(game, n, seed)
    result = engine.check(record)
    assert result.valid, [e.to_dict() for e in result.errors]
    assert sum(result.scores.values()) == 0
    assert len(result.details["trick_winners"]) == len(record["tricks"])
    played = sum(len(play["cards"]) for trick in record["tricks"] for play in trick["plays"])
    assert played == n * GAMES[game].hand_size(n)
    total = sum(result.details["point_cards"].values())
    discarded = summary_of(record, result)["discarded_point_cards"]
    assert total + discarded == GAMES[game].point_cards_total
    from_summary = engine.check(summary_of(record, result))
    assert from_summary.valid and from_summary.scores == result.scores
    assert engine.summarize(record) == summary_of(record, result)  # the engine's own summary


def test_the_first_trick_is_led_by_the_declarer():
    record = deal()
    declarer = record["declaration"]["player"]
    assert record["tricks"][0]["plays"][0]["player"] == declarer
    wrong = copy.deepcopy(record)
    plays = wrong["tricks"][0]["plays"]
    plays.append(plays.pop(0))
    assert codes(wrong)[0] == ("wrong_leader", "tricks[0].plays[0].player")


def test_a_card_not_in_hand_is_named_with_its_path():
    record = deal()
    who = record["tricks"][2]["plays"][1]["player"]
    held = set(record["hands"][who]) | set(record["widow"])
    stranger = next(c for p, h in record["hands"].items() if p != who for c in h if c not in held)
    record["tricks"][2]["plays"][1]["cards"] = [stranger]
    assert ("card_not_held", "tricks[2].plays[1].cards") in codes(record)


def find_revoke(record):
    """A play where the player held the led suit and could swap in another suit's card."""
    for t, trick in enumerate(record["tricks"][:-1]):
        lead = trick["plays"][0]["cards"][0]
        if lead in ("JK", "BR", "S3"):
            continue
        for k, play in enumerate(trick["plays"][1:], start=1):
            card = play["cards"][0]
            if card[0] != lead[0]:
                continue
            # a later card of another suit this player still holds
            later = [
                p["cards"][0]
                for tr in record["tricks"][t + 1 :]
                for p in tr["plays"]
                if p["player"] == play["player"]
            ]
            other = next((c for c in later if c[0] != lead[0] and c not in ("JK", "BR")), None)
            if other:
                return t, k, card, other
    return None


def test_a_revoke_is_reported_and_every_other_problem_too():
    record = deal(seed=3)
    t, k, card, other = find_revoke(record)
    who = record["tricks"][t]["plays"][k]["player"]
    # swap the two cards between the tricks: the first becomes a revoke
    for trick in record["tricks"][t + 1 :]:
        for play in trick["plays"]:
            if play["player"] == who and play["cards"] == [other]:
                play["cards"] = [card]
    record["tricks"][t]["plays"][k]["cards"] = [other]
    record["discards"][0] = "BR"
    found = codes(record)
    assert ("discard_not_held", "discards[0]") in found
    assert ("revoke", f"tricks[{t}].plays[{k}].cards") in found


def test_hands_must_be_the_tables_size_and_the_whole_deck():
    record = deal()
    record["hands"]["P0"] = record["hands"]["P0"][:-1]
    found = codes(record)
    assert ("wrong_card_count", "hands.P0") in found


def test_a_card_dealt_twice_is_an_error():
    record = deal()
    record["hands"]["P1"][0] = record["hands"]["P0"][0]
    assert ("too_many_copies", "hands.P1[0]") in codes(record)


def test_discards_come_from_the_declarers_hand_and_the_widow():
    record = deal()
    declarer = record["declaration"]["player"]
    other = next(p for p in record["players"] if p != declarer)
    record["discards"][0] = record["hands"][other][0]
    assert ("discard_not_held", "discards[0]") in codes(record)


def test_summary_fields_given_with_the_tricks_must_agree():
    record = deal()
    result = engine.check(record)
    record["point_cards"] = {**result.details["point_cards"]}
    assert engine.check(record).valid
    first, second = record["players"][:2]
    record["point_cards"][first] += 1
    record["point_cards"][second] -= 1
    assert codes(record) == [("replay_mismatch", "point_cards")]


def test_adjutants_are_whoever_holds_a_named_card_after_the_exchange():
    record = deal("rettler", 6, seed=11, adjutants=2)
    result = engine.check(record)
    named = set(record["adjutant_cards"])
    declarer = record["declaration"]["player"]
    holders = {p for p, h in record["hands"].items() if p != declarer and named & set(h)}
    assert set(result.details["adjutants"]) == holders


def test_1_nin_dachi_when_the_named_card_was_in_the_widow():
    for seed in range(200):
        record = deal(seed=seed)
        if record["adjutant_cards"] and record["adjutant_cards"][0] in record["widow"]:
            break
    else:
        pytest.fail("no deal with the named card in the widow")
    result = engine.check(record)
    assert result.valid and result.details["adjutants"] == []


def test_3_3_5_naming_cards_that_could_make_too_many_adjutants_is_a_foul():
    record = deal("rettler", 4, seed=5, adjutants=1)  # 4 players: one adjutant
    declarer = record["declaration"]["player"]
    own = set(record["hands"][declarer])
    record["adjutant_cards"] = [c for c in ("SA", "HJ", "DJ", "CJ", "HA") if c not in own][:1]
    assert ("too_many_adjutant_cards", "adjutant_cards") in codes(record)  # two copies of it


@pytest.mark.parametrize(
    ("game", "n", "held", "named"),
    [
        ("rettler", 6, ["SA", "SJ", "SJ", "HJ", "HJ", "CJ"], ["SA", "SJ", "HJ", "CJ"]),
        ("napoleon", 4, ["HJ"], ["SA", "HJ"]),
    ],
)
def test_3_3_5_footnote_8_the_summary_of_a_formal_naming_passes_the_summary_check(
    game, n, held, named
):
    record = deal(
        game, n, seed=3, declarer_cards=held, adjutants=GAMES[game].adjutant_choices(n)[0]
    )
    record["adjutant_cards"] = named  # more cards than adjutants: the declarer holds the rest
    result = engine.check(record)
    assert result.valid, [e.to_dict() for e in result.errors]
    from_summary = engine.check(engine.summarize(record))
    assert from_summary.valid, [e.to_dict() for e in from_summary.errors]
    assert from_summary.scores == result.scores


def test_a_pair_lead_needs_two_equal_cards_and_every_player_plays_two():
    record = deal("rettler", 6, seed=2)
    lead = record["tricks"][1]["plays"][0]
    lead["cards"] = lead["cards"] + ["SA"]
    found = codes(record)
    assert found and found[0][0] in ("illegal_lead", "card_not_held")


def test_a_notrump_joker_lead_must_name_its_suit():
    for seed in range(500):
        record = deal(seed=seed)
        leads = [t["plays"][0] for t in record["tricks"]]
        if record["declaration"]["trump"].endswith("notrump") and any(
            p["cards"] == ["JK"] for p in leads
        ):
            break
    else:
        pytest.fail("no notrump deal with a joker lead")
    for play in leads:
        if play["cards"] == ["JK"]:
            assert play["suit"] in ("spades", "hearts", "diamonds", "clubs")
            del play["suit"]
    assert "missing_field" in [c for c, _ in codes(record)]


def find_deal(predicate, **kw):
    for seed in range(300):
        record = deal(seed=seed, **kw)
        if predicate(record):
            return record
    pytest.fail("no simulated deal has it")


def leads_of(record):
    return [t["plays"][0]["cards"] for t in record["tricks"]]


def test_a_replayed_bomb_takes_its_trick_and_everyone_plays_as_many_cards():
    jacks = ["HJ", "HJ", "DJ", "DJ", "SJ", "SJ"]
    record = find_deal(
        lambda r: any(len(cards) > 2 for cards in leads_of(r)),
        game="rettler",
        n=6,
        trump="notrump",
        declarer_cards=jacks,
    )
    result = engine.check(record)
    assert result.valid, [e.to_dict() for e in result.errors]
    t = next(i for i, cards in enumerate(leads_of(record)) if len(cards) > 2)
    plays = record["tricks"][t]["plays"]
    assert all(len(p["cards"]) == len(plays[0]["cards"]) for p in plays)
    if not any(all(c.endswith("2") for c in p["cards"]) for p in plays[1:]):
        assert result.details["trick_winners"][t] == plays[0]["player"]


def test_after_a_little_the_next_trick_is_a_point_call_that_the_replay_enforces():
    def point_call_with_a_victim(r):
        """(trick, play) where a follower of a 点札請求 played a point card but held another card."""
        for t in engine.check(r).details["point_calls"]:
            trick = r["tricks"][t]
            if trick["plays"][0]["cards"][0] in ("JK", "BR"):
                continue
            for k, play in enumerate(trick["plays"][1:], start=1):
                later = [
                    (u, j, c)
                    for u, tr in enumerate(r["tricks"][t + 1 :], start=t + 1)
                    for j, p in enumerate(tr["plays"])
                    if p["player"] == play["player"]
                    for c in p["cards"]
                    if not parse_card(c).is_face and c not in ("JK", "BR")
                ]
                if later and any(parse_card(c).is_face for c in play["cards"]):
                    return t, k, later[0]
        return None

    record = find_deal(lambda r: point_call_with_a_victim(r) is not None, game="rettler", n=6)
    t, k, (u, j, plain) = point_call_with_a_victim(record)
    given = record["tricks"][t]["plays"][k]["cards"]
    point = next(c for c in given if parse_card(c).is_face)
    given[given.index(point)] = plain
    later = record["tricks"][u]["plays"][j]["cards"]
    later[later.index(plain)] = point
    assert ("revoke", f"tricks[{t}].plays[{k}].cards") in codes(record)


def test_2_3_4_on_the_first_trick_of_a_suit_trump_spade_three_lets_the_joker_stay():
    def kept_joker(r):
        first = r["tricks"][0]["plays"]
        holder = next((p for p in r["players"] if "JK" in r["hands"][p]), None)
        return first[0]["cards"] == ["S3"] and any(
            p["player"] == holder and p["cards"] != ["JK"] for p in first[1:]
        )

    record = find_deal(kept_joker, trump="hearts", declarer_cards=["S3"])
    result = engine.check(record)
    assert result.valid, [e.to_dict() for e in result.errors]
    record["declaration"]["trump"] = "notrump"
    assert "joker_not_given_up" in [c for c, _ in codes(record)]


def test_3_3_3_a_bridge_for_a_spade_on_a_spade_three_lead_without_the_joker_is_a_revoke():
    def spade_then_bridge(r):
        """(trick, play, later trick, play): a ♠3 lead followed with a spade by a player
        who never held the joker and plays a bridge later."""
        declarer = r["declaration"]["player"]
        for t, trick in enumerate(r["tricks"]):
            plays = trick["plays"]
            if plays[0]["cards"] != ["S3"]:
                continue
            for k, play in enumerate(plays[1:], start=1):
                who = play["player"]
                if who == declarer or "JK" in r["hands"][who] or play["cards"][0][0] != "S":
                    continue
                for u, later in enumerate(r["tricks"][t + 1 :], start=t + 1):
                    for j, other in enumerate(later["plays"]):
                        if other["player"] == who and "BR" in other["cards"]:
                            return t, k, u, j
        return None

    record = find_deal(
        lambda r: spade_then_bridge(r) is not None, game="rettler", n=6, trump="notrump"
    )
    t, k, u, j = spade_then_bridge(record)
    spade = record["tricks"][t]["plays"][k]["cards"]
    later = record["tricks"][u]["plays"][j]["cards"]
    spade[0], later[later.index("BR")] = "BR", spade[0]
    assert ("revoke", f"tricks[{t}].plays[{k}].cards") in codes(record)


def test_3_3_3_a_hand_of_two_bridges_may_not_lead_one_before_the_last_trick():
    record = find_deal(
        lambda r: leads_of(r)[-1] == ["BR", "BR"],
        game="rettler",
        n=4,
        declarer_cards=["BR", "BR"],
    )
    assert engine.check(record).valid
    last = record["tricks"].pop()["plays"]
    for i in range(2):  # the pair split into two single tricks, the leader keeping both
        plays = [{"player": p["player"], "cards": [p["cards"][i]]} for p in last]
        record["tricks"].append({"plays": plays})
    t = len(record["tricks"]) - 2
    assert ("illegal_lead", f"tricks[{t}].plays[0].cards") in codes(record)


def test_a_misdealt_hand_is_reported_in_the_details():
    record = deal("napoleon", 4, seed=8)
    assert engine.check(record).details["misdeal_hands"] == []
    weak = ["S3", "H5", "D6", "C7", "S8", "H9", "D3", "C5", "S6", "H7", "D8", "C9"]
    record = deal("napoleon", 4, seed=8, declarer_cards=weak)
    result = engine.check(record)
    assert result.valid and result.details["misdeal_hands"] == ["P0"]


@pytest.mark.parametrize(("game", "n"), [("napoleon", 4), ("rettler", 6)])
def test_a_trick_lists_one_play_by_each_player(game, n):
    short = deal(game, n)
    del short["tricks"][2]["plays"][-1]
    long = deal(game, n)
    long["tricks"][2]["plays"].append(long["tricks"][2]["plays"][0])
    for record in (short, long):
        assert [e.to_dict() for e in engine.check(record).errors] == [
            {
                "code": "wrong_play_count",
                "path": "tricks[2].plays",
                "message": f"every one of the {n} players plays once",
                "params": {"n": n},
            }
        ]


@pytest.mark.parametrize(("game", "n"), [("napoleon", 5), ("rettler", 5)])
def test_a_match_is_played_to_its_target_by_random_full_play_deals(game, n):
    players = [f"P{i}" for i in range(n)]
    deals = play_match(GAMES[game], random.Random(7), players, target=3)
    assert len(deals) == 3 and all(d["players"] == players and d["tricks"] for d in deals)
    match = engine.check_match({"game": game, "players": players, "target": 3, "deals": deals})
    assert match.valid and match.finished
