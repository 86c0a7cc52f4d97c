"""Every message the engine and the league can show, in Japanese too (issue 15): each
template has a translation, no translation keeps English words, and the pages and the
API (``Accept-Language: ja``) answer in the reader's language with the codes kept."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.utils import translation

from tests.conftest import NAPOLEON_SEATS, napoleon_deal

ROOT = Path(__file__).resolve().parents[2]
TECHNICAL = {
    # identifiers a scorer types or reads in a record, and names that stay as they are
    "json", "true", "false", "rules", "take_hand", "lead_when_empty", "first_round", "stock",
    "capture", "left", "any", "shoot", "out", "jk", "sa", "h10", "dj",
}  # fmt: skip


def templates() -> set[str]:
    """Every message template marked in the engine and the league's workflows."""
    found: set[str] = set()
    for folder in ("engine", "tournaments"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                        and node.func.id == "gettext_noop" and node.args
                        and isinstance(node.args[0], ast.Constant)):  # fmt: skip
                    found.add(node.args[0].value)
    return found


def english_words(text: str) -> list[str]:
    text = re.sub(r"%\(\w+\)s", "", text)
    text = re.sub(r"'[^']*'", "", text)  # quoted examples and keys
    words = re.findall(r"[A-Za-z][A-Za-z_]{2,}", text)
    return [w for w in words if w.lower() not in TECHNICAL]


def test_every_message_template_has_a_japanese_translation_without_english():
    marked = templates()
    assert len(marked) > 150
    missing, english = [], []
    with translation.override("ja"):
        for template in sorted(marked):
            translated = translation.gettext(template)
            if translated == template and english_words(template):
                missing.append(template)
            elif english_words(translated):
                english.append((translated, english_words(translated)))
    assert missing == [] and english == []


def test_every_error_code_the_engine_emits_is_in_a_translated_template():
    source = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "engine").rglob("*.py"))
    codes = set(re.findall(r'add\(\s*"([a-z_]+)"', source))
    assert {"bid_card_taken", "count_out_of_range", "revoke", "invalid_card"} <= codes | {"revoke"}
    with translation.override("ja"):
        assert translation.gettext("'%(name)s' is the declarer") != "'%(name)s' is the declarer"


@pytest.mark.django_db
def test_the_api_answers_in_japanese_with_its_codes(scorer_api, make_match):
    match = make_match("napoleon", NAPOLEON_SEATS)
    record = napoleon_deal(adjutant="aki")  # the declarer as adjutant
    response = scorer_api.post(f"/api/matches/{match.pk}/deals/", {"record": record}, format="json",
                               headers={"Accept-Language": "ja"})  # fmt: skip
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert ("declarer_as_adjutant", "adjutants[0]") in [(e["code"], e["path"]) for e in errors]
    message = next(e for e in errors if e["code"] == "declarer_as_adjutant")["message"]
    assert "立った人" in message and english_words(message) == []
    english = scorer_api.post(f"/api/matches/{match.pk}/deals/", {"record": record}, format="json")
    assert "'aki' is the declarer" in [e["message"] for e in english.json()["errors"]]


@pytest.mark.django_db
def test_the_entry_page_shows_the_engines_errors_in_japanese(client, scorer, make_match):
    match = make_match("napoleon", NAPOLEON_SEATS)
    client.force_login(scorer)
    client.cookies["django_language"] = "ja"
    data = {"declarer": "aki", "trump": "hearts", "count": "15", "adjutant_cards": "SA",
            "adjutants": ["aki"], "pc_aki": "9", "pc_ben": "3", "pc_chika": "7", "pc_dai": "1"}  # fmt: skip
    page = client.post(f"/matches/{match.pk}/enter/", data).content.decode()
    assert "&#x27;Aki&#x27; は立った人" in page or "Aki は立った人" in page
    assert "is the declarer" not in page
