"""docs/deal-records.md stays the contract: its examples check, its error table is complete."""

import json
import re
from pathlib import Path

import engine

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "deal-records.md").read_text(encoding="utf-8")


def json_blocks():
    for block in re.findall(r"```json\n(.*?)```", DOC, flags=re.S):
        if "…" in block:
            continue  # an abbreviated example
        try:
            yield json.loads(block)
        except json.JSONDecodeError:
            continue  # examples abbreviated with "…"


def test_the_documented_summary_examples_are_valid_records():
    games = {"rettler", "comp13", "packing", "twentytwo", "1234", "bhabhi", "comrade"}
    examples = [b for b in json_blocks() if b.get("game") in games]
    assert {e["game"] for e in examples} == games
    for example in examples:
        result = engine.check(example)
        assert result.valid, (example["game"], [e.to_dict() for e in result.errors])


def test_every_error_code_the_engine_emits_is_documented():
    emitted = set()
    for source in (ROOT / "engine").rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        emitted |= set(re.findall(r'\.add\(\s*"([a-z_]+)"', text))
        emitted |= set(re.findall(r'MoveError\(\s*"([a-z_]+)"', text))
        if 'f"{key}_mismatch"' in text:  # engine/api.py: one per envelope key of a match deal
            emitted |= {"game_mismatch", "players_mismatch"}
    documented = set(re.findall(r"`([a-z_]+)`", DOC.split("### Error codes")[1].split("## ")[0]))
    assert emitted, "no error codes found in engine/"
    assert emitted <= documented, sorted(emitted - documented)


def test_every_example_record_in_docs_examples_is_valid():
    examples = sorted((ROOT / "docs" / "examples").glob("*.json"))
    assert {p.stem.split("-")[0] for p in examples} >= set(engine.GAMES)
    for path in examples:
        record = json.loads(path.read_text(encoding="utf-8"))
        result = engine.check_match(record) if "deals" in record else engine.check(record)
        assert result.valid, (path.name, [e.to_dict() for e in result.errors])
