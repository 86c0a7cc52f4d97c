"""``python -m engine check|match FILE`` (docs/deal-records.md, "Command line")."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

RETTLER = {
    "game": "rettler",
    "players": ["A", "B", "C", "D", "E", "F"],
    "declaration": {"player": "A", "count": 28, "trump": "diamonds", "adjutants": 2},
    "adjutant_cards": ["SA"],
    "adjutants": ["C", "D"],
    "point_cards": {"A": 16, "B": 6, "C": 10, "D": 3, "E": 1, "F": 2},
    "discarded_point_cards": 2,
}


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_check_prints_the_documented_object_and_exits_0_for_the_contracts_example(tmp_path):
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(RETTLER))
    done = run("check", str(path))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert set(out) == {"game", "valid", "errors", "scores", "details"}
    assert out["valid"] is True and out["errors"] == []
    # 28 declared, the army took 16 + 10 + 3 = 29: a x1 win, two adjutants, 6 players (C.5).
    assert out["scores"] == {"A": 30, "B": -20, "C": 15, "D": 15, "E": -20, "F": -20}
    assert out["details"]["army_point_cards"] == 29
    assert out["details"]["outcome"] == "declarer_win"


def test_an_invalid_record_exits_1_with_every_error_coded_and_located():
    bad = {**RETTLER, "adjutants": ["C", "Z"], "point_cards": {**RETTLER["point_cards"], "F": 9}}
    done = run("check", "-", stdin=json.dumps(bad))
    assert done.returncode == 1
    errors = json.loads(done.stdout)["errors"]
    assert {(e["code"], e["path"]) for e in errors} == {
        ("unknown_player", "adjutants[1]"),
        ("point_cards_total", "point_cards"),
    }
    assert all(e["message"] for e in errors)


@pytest.mark.parametrize(
    "text",
    ["{not json", "[1, 2]", '{"game": "chess", "players": []}', '{"players": []}', "1" * 5000],
)
def test_input_that_is_not_a_record_exits_2_with_a_reason_on_stderr(text):
    done = run("check", "-", stdin=text)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() and "\n" not in done.stderr.strip()


def test_a_missing_file_exits_2():
    done = run("check", "/nonexistent/deal.json")
    assert done.returncode == 2 and "cannot read" in done.stderr


def test_a_file_that_is_not_utf8_exits_2(tmp_path):
    path = tmp_path / "deal.json"
    path.write_bytes(json.dumps(RETTLER).encode("utf-16"))
    done = run("check", str(path))
    assert done.returncode == 2 and "not UTF-8" in done.stderr


def test_match_prints_standings_and_each_deal():
    record = {
        "game": "rettler",
        "players": RETTLER["players"],
        "deals": [{k: v for k, v in RETTLER.items() if k not in ("game", "players")}] * 2,
    }
    done = run("match", "-", stdin=json.dumps(record))
    assert done.returncode == 0, done.stdout
    out = json.loads(done.stdout)
    assert {"game", "valid", "errors", "standings", "finished", "winner", "deals"} <= set(out)
    assert out["standings"][0] == {
        "player": "A",
        "total": 60,
        "deals": 2,
        "deals_won": 2,
        "rank": 1,
    }
    assert out["finished"] is False and out["winner"] is None
    assert len(out["deals"]) == 2


@pytest.mark.parametrize("game", ["twentytwo", "1234", "bhabhi", "comrade"])
def test_the_command_line_checks_and_matches_every_rulebook_game(game, tmp_path):
    deal = ROOT / "docs" / "examples" / f"{game}-full.json"
    match = ROOT / "docs" / "examples" / f"{game}-match.json"
    done = run("check", str(deal))
    assert done.returncode == 0, done.stdout
    assert json.loads(done.stdout)["game"] == game
    done = run("match", str(match))
    assert done.returncode == 0, done.stdout
    out = json.loads(done.stdout)
    assert out["finished"] and out["next_deal"] == {} and out["standings"]
    broken = json.loads(deal.read_text())
    broken["players"] = broken["players"][:1]
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken))
    done = run("check", str(path))
    assert done.returncode == 1
    assert json.loads(done.stdout)["errors"][0]["code"] in ("player_count", "unknown_player")
