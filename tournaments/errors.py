"""The refusal every check and action raises, and the words of its problems.

A :class:`Rejection` carries one or more problems, each as the engine reports its own
(:func:`error`: a code, a path, the English message and the template and params that
``tournaments.messages.localize`` translates).  The checks of ``tournaments`` raise it as
the actions of ``actions`` do, so it lives at the bottom of the league, in one place.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.problems import Problem
from tournaments.models import Deal, Match


class Rejection(Exception):
    """A change the rules or the match's state refuse; nothing was written.

    ``conflict`` is true when the refusal is about the match's state (finished,
    the deal number taken); ``existing`` is then the deal already stored, if any (or the
    match, for a new match like one stored).
    """

    def __init__(
        self,
        errors: tuple[dict[str, str], ...],
        *,
        conflict: bool = False,
        existing: Deal | Match | None = None,
    ) -> None:
        super().__init__(errors)
        self.errors = errors
        self.conflict = conflict
        self.existing = existing

    def __str__(self) -> str:
        return "; ".join(f"{e['path'] or 'record'}: {e['message']}" for e in self.errors)


def error(code: str, path: str, template: str, **params: Any) -> dict[str, Any]:
    """One problem as the engine reports it: a code, a path, a message (English), and the
    message's template and params, which :func:`tournaments.messages.localize` translates."""
    message = template % params if params else template.replace("%%", "%")
    kept = {
        k: v if isinstance(v, int) and not isinstance(v, bool) else str(v)
        for k, v in params.items()
    }
    return {"code": code, "path": path, "message": message, "template": template, "params": kept}


def refusal(code: str, path: str, template: str, **params: Any) -> Rejection:
    """A refusal of one problem (:func:`error`): raise it, nothing is written."""
    return Rejection((error(code, path, template, **params),))


def problems(found: Iterable[Problem]) -> tuple[dict[str, Any], ...]:
    """The engine's problems as the league's errors (with the templates that translate them)."""
    return tuple({**p.to_dict(), "template": p.template} for p in found)


# The refusals every form of input shares: one code each, whoever refuses.


def missing(path: str, template: str, **params: Any) -> Rejection:
    """Something required was not given (``missing_field``)."""
    return refusal("missing_field", path, template, **params)


def too_long(path: str, template: str, **params: Any) -> Rejection:
    """A text longer than what is kept (``too_long``); ``template`` names the limit."""
    return refusal("too_long", path, template, **params)


def too_many(path: str, template: str, **params: Any) -> Rejection:
    """More items than allowed (``too_many``); ``template`` names the limit."""
    return refusal("too_many", path, template, **params)


def text(value: Any, path: str, *, most: int, missing_words: str, too_long_words: str) -> str:
    """``value`` as a stripped text of 1 to ``most`` characters, or the refusal that says
    what is wrong: :func:`missing` (not given, blank, not a text) or :func:`too_long`
    (``too_long_words`` reads the limit as ``%(n)s``)."""
    if not isinstance(value, str) or not value.strip():
        raise missing(path, missing_words)
    value = value.strip()
    if len(value) > most:
        raise too_long(path, too_long_words, n=most)
    return value
