"""What a sheet's row says of its match's settings, checked cell by cell: the rules
(``name=value``, separated as :func:`~tournaments.sheets.reading.rule_tokens` reads
them), the target, and whether a value fits the field it is stored in.  A mistake is
reported through ``fail`` at its row and column, as everywhere in ``tournaments.sheets``."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext

from tournaments.games.base import LeagueGame
from tournaments.models import Match
from tournaments.sheets import cells
from tournaments.sheets.names import Fail
from tournaments.sheets.reading import rule_tokens, rule_value
from tournaments.textfile import whole_number


class MatchSettings:
    def __init__(self, fail: Fail) -> None:
        self.fail = fail

    def fits(self, row: int, column: str, model: type[models.Model], name: str, value: Any) -> bool:
        """Whether ``value`` can be stored in the model's field (its length, its range);
        a mistake at ``row`` and ``column`` with Django's message when not."""
        stored = model._meta.get_field(name)
        assert isinstance(stored, models.Field)
        try:
            stored.run_validators(value)
        except ValidationError as invalid:
            self.fail("out_of_range", row, column, " ".join(invalid.messages))
            return False
        return True

    def rules(self, row: int, text: cells.Cell) -> dict[str, Any]:
        rules: dict[str, Any] = {}
        for token in rule_tokens(text):
            name, eq, value = token.partition("=")
            if not eq or not name.strip():
                self.fail(
                    "wrong_rules",
                    row,
                    "rules",
                    gettext("write rules as name=value, e.g. jokers=1 or gambling=yes"),
                )
                continue
            rules[name.strip()] = rule_value(value.strip())
        return rules

    def target(self, row: int, text: cells.Cell, game: LeagueGame) -> int | None:
        if not text:
            return game.rules.default_target
        number = whole_number(text) if isinstance(text, str) else None
        if number is not None:
            if self.fits(row, "target", Match, "target", number):
                return number
        else:
            self.fail("wrong_type", row, "target", gettext("the target is a whole number"))
        return game.rules.default_target
