"""The templates' markup holds together inside each branch: every HTML element a template
opens in an ``{% if %}``, ``{% else %}``, ``{% for %}`` or ``{% block %}`` branch closes in
that same branch.  A ``<form>`` opened under ``{% if %}`` and closed after ``{% endif %}``
renders as broken markup the other way, and no page test would see it.  (djLint, in
``make lint``, lays the templates out; it does not follow branches.)

And one element a line: djLint keeps inline elements (links, spans) where they are
written, so two links side by side are held apart here."""

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
VOID |= {"track", "wbr", "path", "circle", "rect"}  # and SVG shapes written <path … />
OPENS = {"if", "for", "with", "block", "blocktranslate", "blocktrans", "spaceless"}
OPENS |= {"autoescape", "filter", "ifchanged", "localize", "language", "timezone"}
BRANCHES = {"elif", "else", "empty", "plural"}
UNPARSED = {"comment": "endcomment", "verbatim": "endverbatim"}
RAW_TEXT = {"script", "style"}  # their content is not markup

TOKEN = re.compile(
    r"{%-?\s*(?P<tag>\w+)[^%]*%}"
    r"|{#.*?#}|{{.*?}}|<!--.*?-->|<!doctype[^>]*>"
    r"|<(?P<close>/?)(?P<element>[a-zA-Z][\w-]*)(?P<attrs>(?:{%.*?%}|{{.*?}}|[^>])*)>",
    re.S | re.I,
)


@dataclass
class Branch:
    opened_by: str
    line: int
    elements: list[tuple[str, int]] = field(default_factory=list)


def unbalanced(source: str) -> list[str]:
    """What does not hold together in one template, as ``line N: …`` sentences."""
    problems: list[str] = []
    branches = [Branch("the template", 1)]
    position = 0
    while match := TOKEN.search(source, position):
        position = match.end()
        line = source.count("\n", 0, match.start()) + 1
        here = branches[-1]
        if tag := match["tag"]:
            if tag in UNPARSED:
                end = re.search(r"{%\s*" + UNPARSED[tag] + r"\s*%}", source[position:])
                position += end.end() if end else len(source)
            elif tag in OPENS:
                branches.append(Branch(tag, line))
            elif tag in BRANCHES or tag.startswith("end"):
                problems += [
                    f"line {line}: <{name}> (line {at}) is still open at {{% {tag} %}}"
                    for name, at in here.elements
                ]
                if tag.startswith("end"):
                    branches.pop()
                else:
                    here.elements = []
        elif element := match["element"]:
            name = element.lower()
            if match["close"]:
                if here.elements and here.elements[-1][0] == name:
                    here.elements.pop()
                else:
                    problems.append(
                        f"line {line}: </{name}> closes no <{name}> opened in this "
                        f"{{% {here.opened_by} %}} branch (line {here.line})"
                    )
            elif name in RAW_TEXT:
                end = re.search(rf"</{name}\s*>", source[position:], re.I)
                position += end.end() if end else len(source)
            elif name not in VOID and not match["attrs"].rstrip().endswith("/"):
                here.elements.append((name, line))
    problems += [f"line {at}: <{name}> is never closed" for name, at in branches[0].elements]
    if len(branches) > 1:
        problems.append(f"line {branches[-1].line}: {{% {branches[-1].opened_by} %}} never ends")
    return problems


@pytest.mark.parametrize(
    "template", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES))
)
def test_every_element_closes_in_the_branch_that_opens_it(template):
    assert unbalanced(template.read_text()) == []


@pytest.mark.parametrize(
    "source, problem",
    [
        ("{% if a %}<form>{% endif %}</form>", "<form> (line 1) is still open at {% endif %}"),
        ("<ul>{% for x in y %}</ul><ul>{% endfor %}", "</ul> closes no <ul> opened in this"),
        ("{% if a %}<p>{% else %}<div>{% endif %}</p>", "<p> (line 1) is still open at {% else %}"),
        ("<section>\n<h2>t</h2>", "line 1: <section> is never closed"),
        ("{% if a %}<b>x</b>", "{% if %} never ends"),
    ],
)
def test_the_check_finds_what_a_branch_leaves_open(source, problem):
    assert any(problem in found for found in unbalanced(source)), unbalanced(source)


def test_the_check_passes_what_holds_together():
    """Void elements, tags inside attributes, comments and scripts are not elements to close."""
    source = """{% load i18n %}<!DOCTYPE html>
    <li{% if a %} class="x"{% endif %}><input type="text" {% if b %}checked{% endif %}>
    <img src="{{ q }}" alt="a > b"><br>{# <div> #}{% comment %}<div>{% endcomment %}
    <script>if (a < b) { document.write("<div>"); }</script>
    {% for x in y %}<span>{{ x }}</span>{% empty %}<em>none</em>{% endfor %}</li>
    {% blocktranslate count n=k %}<b>{{ n }}</b> deal{% plural %}<b>{{ n }}</b> deals{% endblocktranslate %}"""
    assert unbalanced(source) == []


INLINE = "a|span|button|label|strong|em|small|time|output"
SIBLING = re.compile(rf"</({INLINE})>[ \t]+[^<\n]*<({INLINE}|input|select|img)\b")
"""An element closed with another after it on its line, with a space or a ``·`` between
(djLint keeps inline elements where they are written)."""
PROSE = re.compile(
    r"{%\s*blocktrans.*?{%\s*endblocktrans\w*\s*%}|<(pre|script|style)\b.*?</\1>", re.S
)


def crowded(source: str) -> list[int]:
    """The lines that hold two elements side by side, outside prose to translate."""
    source = PROSE.sub(lambda m: "\n" * m[0].count("\n"), source)
    return [n for n, line in enumerate(source.split("\n"), 1) if SIBLING.search(line)]


@pytest.mark.parametrize(
    "template", sorted(TEMPLATES.rglob("*.html")), ids=lambda p: str(p.relative_to(TEMPLATES))
)
def test_one_element_a_line(template):
    assert crowded(template.read_text()) == []


def test_the_line_check_sees_links_side_by_side_but_not_prose():
    assert crowded('<p>\n  <a href="/a">A</a> · <a href="/b">B</a>\n</p>') == [2]
    assert crowded("<a>A</a>\n<span>x</span>: y") == []
    assert (
        crowded("{% blocktranslate %}a <code>b</code> and <em>c</em> d{% endblocktranslate %}")
        == []
    )
