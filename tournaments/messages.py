"""Problems in the reader's language: the engine's and the league's messages carry a
template (``%(name)s`` placeholders, English) and its params; the active language's
translation of the template (``locale/``) is filled with the params, whose text
values are translated too where the catalogue knows them (a type name, a rule)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, ngettext

from engine.cards import card_label
from tournaments.games import label

CARD_PARAMS = frozenset({"code_", "code_2", "codes", "cards"})
"""The engine's params that hold cards by their codes (``SA``, ``SA SK``): said as the
card pads show them (♠A ♠K), so that the scorer finds in the message what the form shows."""


def _cards_shown(text: str) -> str:
    """Each code of ``text`` as people read it, the rest as written (a count, a joker)."""
    return re.sub(r"[^\s,]+", lambda found: card_label(found.group()), text)


def localize(problem: Mapping[str, Any], names: Mapping[str, str] | None = None) -> str:
    """The problem's message in the active language; ``names`` turns player handles
    among the params into display names."""
    template = problem.get("template")
    if not template:
        return str(problem.get("message", ""))
    values = {}
    for key, value in (problem.get("params") or {}).items():
        if key == "game" and isinstance(value, str):  # a game's name: said as pages say it
            values[key] = label(value)
            continue
        if key in CARD_PARAMS and isinstance(value, str):
            values[key] = _cards_shown(value)
            continue
        if isinstance(value, str):
            value = (names or {}).get(value, value)
            value = gettext(value) if value else value
        values[key] = value
    try:
        return gettext(template) % values if values else gettext(template).replace("%%", "%")
    except (KeyError, TypeError, ValueError):  # a translation that does not fit its params
        return str(problem.get("message", ""))


def public(problem: Mapping[str, Any]) -> dict[str, Any]:
    """A problem as the API answers it: code, path, the message in the asked language
    (``Accept-Language``) and the message's params."""
    return {
        "code": problem["code"],
        "path": problem["path"],
        "message": localize(problem),
        "params": dict(problem.get("params") or {}),
    }


ANSWERED = 100
"""Problems an answer lists at most: a body of a hundred thousand wrong cards (under the
1 MB limit) answered each of them, 15 MB of the same sentence."""


def answered(problems: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The problems as the API answers them (:func:`public`), the first :data:`ANSWERED`,
    then one saying how many more there are (code ``more``, ``params.n``)."""
    shown = [public(p) for p in problems[:ANSWERED]]
    left = len(problems) - ANSWERED
    if left > 0:
        said = ngettext("…and %(n)s more problem", "…and %(n)s more problems", left)
        shown.append(
            {"code": "more", "path": "", "message": said % {"n": left}, "params": {"n": left}}
        )
    return shown
