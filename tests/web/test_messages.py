"""Every message the engine and the league can show, in Japanese too (issue 15): each
template has a translation, no translation keeps English words, and the pages and the
API (``Accept-Language: ja``) answer in the reader's language with the codes kept."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.template import Context, Template
from django.template.base import Lexer, TokenType
from django.utils import translation

from tests.conftest import NAPOLEON_SEATS, napoleon_deal

ROOT = Path(__file__).resolve().parents[2]
TECHNICAL = {
    # identifiers a scorer types or reads in a record, and names that stay as they are
    "json", "true", "false", "rules", "take_hand", "lead_when_empty", "first_round", "stock",
    "capture", "left", "any", "shoot", "out", "jk", "sa", "h10", "dj",
    "csv", "xlsx", "utf",  # file formats and an encoding, named as the reader's software names them
    "asia", "tokyo", "europe", "london",  # time zones, typed as the IANA database names them
}  # fmt: skip


def templates() -> set[str]:
    """Every message template marked in the engine and the league's workflows."""
    found: set[str] = set()
    for folder in ("engine", "tournaments", "actions", "scoring"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id == "gettext_noop"
                    and node.args
                    and isinstance(node.args[0], ast.Constant)
                ):
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


def code_templates() -> dict[str, set[str]]:
    """Each error code with the message templates it is raised with: ``add(code, path,
    gettext_noop(…))`` in the engine, ``error(…)`` in the league, ``MoveError(code,
    gettext_noop(…))`` in Comp-13; codes chosen at run time name their templates here."""
    pairs: dict[str, set[str]] = {}
    calls = {"add": 2, "error": 2, "MoveError": 1}
    for folder in ("engine", "tournaments", "actions", "scoring"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for scope in [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))]:
                assigned = _assignments(scope)
                for node in ast.walk(scope):
                    if not isinstance(node, ast.Call):
                        continue
                    name = (
                        node.func.attr
                        if isinstance(node.func, ast.Attribute)
                        else getattr(node.func, "id", "")
                    )
                    at = calls.get(name)
                    if at is None or len(node.args) <= at:
                        continue
                    for code in _strings(node.args[0], assigned, noop=False):
                        pairs.setdefault(code, set()).update(
                            _strings(node.args[at], assigned, noop=True)
                        )
    played = "%(who)s played %(cards)s: %(rule)s"  # replay: RULE_CODES[rule]
    differs = "differs from the match's '%(key)s' (%(expected)s)"  # api: f"{key}_mismatch"
    for code, template in (
        ("revoke", played),
        ("joker_not_given_up", played),
        ("game_mismatch", differs),
        ("players_mismatch", differs),
    ):
        pairs.setdefault(code, set()).add(template)
    return pairs


def _assignments(scope: ast.AST) -> dict[str, list[ast.expr]]:
    """What each local name is assigned in ``scope`` (a name may be assigned in branches)."""
    found: dict[str, list[ast.expr]] = {}
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found.setdefault(target.id, []).append(node.value)
    return found


def _strings(expr: ast.expr, assigned: dict[str, list[ast.expr]], noop: bool) -> set[str]:
    """The literal codes (or, with ``noop``, the gettext_noop templates) ``expr`` can be."""
    values = assigned.get(expr.id, []) if isinstance(expr, ast.Name) else [expr]
    out: set[str] = set()
    for value in values:
        for node in ast.walk(value):
            if (
                noop
                and isinstance(node, ast.Call)
                and getattr(node.func, "id", "") == "gettext_noop"
            ):
                out.add(node.args[0].value)
            elif not noop and isinstance(node, ast.Constant) and isinstance(node.value, str):
                out.add(node.value)
    return out


def documented_codes() -> set[str]:
    """The codes of the contract's error table (its first column)."""
    doc = (ROOT / "docs" / "deal-records.md").read_text(encoding="utf-8")
    table = doc.split("### Error codes")[1].split("\n## ")[0]
    return {
        code
        for line in table.splitlines()
        if line.startswith("| `")
        for code in re.findall(r"`([a-z_]+)`", line.split("|")[1])
    }


def test_every_documented_error_code_has_its_messages_in_japanese():
    pairs = code_templates()
    codes = documented_codes()
    assert len(codes) > 60
    without = sorted(code for code in codes if code not in pairs)
    assert without == [], "documented codes raised with no message template"
    with translation.override("ja"):
        untranslated = sorted(
            (code, t)
            for code in codes
            for t in pairs[code]
            if translation.gettext(t) == t and english_words(t)
        )
    assert untranslated == []


@pytest.mark.django_db
def test_the_api_answers_in_japanese_with_its_codes(scorer_api, make_match):
    match = make_match("napoleon", NAPOLEON_SEATS)
    record = napoleon_deal(adjutant="aki")  # the declarer as adjutant
    response = scorer_api.post(
        f"/api/matches/{match.pk}/deals/",
        {"record": record},
        format="json",
        headers={"Accept-Language": "ja"},
    )
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
    data = {
        "declarer": "aki",
        "trump": "hearts",
        "count": "15",
        "adjutant_cards": "SA",
        "adjutants": ["aki"],
        "pc_aki": "9",
        "pc_ben": "3",
        "pc_chika": "7",
        "pc_dai": "1",
    }
    page = client.post(f"/matches/{match.pk}/enter/", data).content.decode()
    assert "&#x27;Aki&#x27; は立った人" in page or "Aki は立った人" in page
    assert "is the declarer" not in page


@pytest.mark.django_db
def test_a_sum_over_the_point_cards_is_named_by_the_block_not_its_last_field(
    client, scorer, make_match
):
    """Point cards 3 + 1 + 9 + 2 (15, not 20): the problem stands under the block's last
    field (the discarded ones), and the list at the top names it "点札", not "表向きに
    捨てた点札", which sent a newcomer to the wrong field."""
    match = make_match("napoleon", NAPOLEON_SEATS)
    client.force_login(scorer)
    client.cookies["django_language"] = "ja"
    data = {
        "declarer": "aki",
        "trump": "hearts",
        "count": "15",
        "adjutant_cards": "SA",
        "adjutants": ["ben"],
        "pc_aki": "3",
        "pc_ben": "1",
        "pc_chika": "9",
        "pc_dai": "2",
    }
    page = client.post(f"/matches/{match.pk}/enter/", data).content.decode()
    summary = page[page.index('id="error-summary"') :]
    summary = summary[: summary.index("</ul>")]
    assert re.search(r'href="#field-discarded">\s*点札: プレイヤーの点札 \(15\)', summary), summary
    under = page[page.index('id="field-discarded"') :]
    assert "プレイヤーの点札 (15)" in under[: under.index('id="field-', 1)]  # before the next
    client.cookies["django_language"] = "en"
    page = client.post(f"/matches/{match.pk}/enter/", data).content.decode()
    assert re.search(r'href="#field-discarded">\s*Point cards: the players', page)


GLOSSARY = {"卓": "テーブル", "例会": "クラブナイト"}
"""One Japanese word for one thing on every page: the word kept, and the one it replaced."""


def test_one_japanese_word_for_one_thing():
    po = (ROOT / "locale" / "ja" / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    said = "\n".join(re.findall(r'^msgstr(?:\[\d+\])? "(.*)"$', po, re.MULTILINE))
    for kept, replaced in GLOSSARY.items():
        assert kept in said
        assert replaced not in said, [line for line in said.splitlines() if replaced in line]


def literal_translations() -> set[tuple[str, str]]:
    """Every quoted string of a ``{% translate %}`` tag in the templates, with its file."""
    found = set()
    for path in (ROOT / "templates").rglob("*.html"):
        for token in Lexer(path.read_text(encoding="utf-8")).tokenize():
            if token.token_type == TokenType.BLOCK:
                tag = re.match(r"""(?:translate|trans)\s+("[^"]*"|'[^']*')""", token.contents)
                if tag:
                    found.add((tag.group(1), path.name))
    return found


def test_every_translated_word_of_the_templates_reads_in_japanese():
    """Each ``{% translate %}`` string has its Japanese, as Django looks it up: a string
    with ``%`` (a label a script fills in, "%s deals") is looked up with its signs
    doubled, so a catalogue entry written with single signs is never found and the
    Japanese page shows the English."""
    literals = literal_translations()
    assert len(literals) > 500  # the templates were read
    with translation.override("ja"):
        english = [
            (quoted, name)
            for quoted, name in sorted(literals)
            if Template("{% load i18n %}{% translate " + quoted + " %}").render(Context())
            == quoted[1:-1]
        ]
    assert english == []


GETTEXT = {"_", "gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy"}
GETTEXT |= {"pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy"}


def python_messages() -> list[tuple[str, int, str | None, str, str | None]]:
    """Every string the project's Python marks for translation (path, line, context,
    singular, plural), as ``makemessages`` would find it, migrations aside."""
    found = []
    for folder in ("engine", "tournaments", "actions", "scoring", "reach", "web", "ops", "config"):
        for path in (ROOT / folder).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call):
                    continue
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                texts = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
                if name not in GETTEXT or not texts:
                    continue
                context = texts.pop(0) if name.startswith(("pgettext", "npgettext")) else None
                plural = texts[1] if name.startswith(("ngettext", "npgettext")) else None
                if texts and isinstance(texts[0], str):
                    found.append(
                        (str(path.relative_to(ROOT)), node.lineno, context, texts[0], plural)
                    )
    return found


def test_every_message_of_the_python_code_has_its_japanese():
    """A message added to a view, a form or a worker without its Japanese shows English on
    a Japanese page (a push refusal did); the engine's are checked above."""
    marked = python_messages()
    assert len(marked) > 1000  # the code was read
    missing = []
    with translation.override("ja"):
        for path, line, context, text, plural in marked:
            if plural is not None:
                said = (
                    translation.npgettext(context, text, plural, 1)
                    if context
                    else (translation.ngettext(text, plural, 1))
                )
            else:
                said = translation.pgettext(context, text) if context else translation.gettext(text)
            if said == text and english_words(text):
                missing.append(f"{path}:{line} {text}")
    assert missing == []
