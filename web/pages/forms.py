"""The deal entry form of the table-side page: generic over the games' web modules.

The form only turns what the scorer typed into a deal record; the engine (via
``actions.deals.enter_deal``) judges it, and its errors are put back next to the
fields they concern (``attach_engine_errors``).  What was typed is never lost:
the form is shown again with the scorer's input.  Which fields a game has, how
they become a record and where an engine error belongs is the game's
:class:`~tournaments.games.base.LeagueGame`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

import actions.deals
import engine
from tournaments.games import league_game
from tournaments.games.base import Section
from tournaments.messages import localize
from tournaments.models import Match, Player

MAX_UPLOAD = 1024 * 1024


class DealEntryForm(forms.Form):
    """The game's fields are added in ``__init__``; ``record()`` builds the deal record."""

    full_record = forms.CharField(
        label=_("Full play log (JSON), instead of the fields above"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
    )
    full_record_file = forms.FileField(label=_("…or upload it as a .json file"), required=False)
    number = forms.IntegerField(widget=forms.HiddenInput, required=False)
    key = forms.CharField(widget=forms.HiddenInput, required=False, max_length=255)
    """The entry's own key (``actions.deals.enter_deal``): a resent form stores nothing new."""
    confirm_same = forms.BooleanField(widget=forms.HiddenInput, required=False)
    """The scorer confirmed a deal identical to the previous one."""

    point_total = 0
    """What the running sum of the ``points`` fields must reach (0: no running sum)."""

    def __init__(self, *args: Any, match: Match, before: int | None = None, **kwargs: Any) -> None:
        """``before``: the form is for that deal number (a correction), not the next deal."""
        super().__init__(*args, **kwargs)
        self.match = match
        self.game = league_game(match.game)
        self.problem_labels: dict[str, str] = {}
        """An engine error's words → what the list of problems names it by, where the game
        names it by a block rather than its field (``LeagueGame.problem_label``)."""
        self.players: list[Player] = match.seated_players()
        self.next_deal: dict[str, Any] = {}
        if engine.GAMES[match.game].deals_follow_the_match:
            # Who plays the deal, who deals it: the action layer's reading of the match.
            self.next_deal = actions.deals.next_deal(match, before)
            seated = self.next_deal.get("players") or [p.handle for p in self.players]
            self.players = [p for p in self.players if p.handle in seated]
        self.handles = [p.handle for p in self.players]
        common = set(self.fields)
        self.game.add_fields(self)
        self.game_field_names = [name for name in self.fields if name not in common]
        if self.gives_a_play_log():  # the log is the whole deal: the fields may stay empty
            for name in self.game_field_names:
                self.fields[name].required = False

    def untouched(self) -> bool:
        """Nothing was chosen or typed: every field but the form's own hidden ones is as the
        form showed it (a second tap on Save that landed on the next deal's new form)."""
        own = ("number", "key", "confirm_same")
        return self.is_bound and not any(
            field.has_changed(self[name].initial, self[name].data)
            for name, field in self.fields.items()
            if name not in own
        )

    def gives_a_play_log(self) -> bool:
        """A full play log was pasted or uploaded (it takes the place of the fields)."""
        return bool(
            self.is_bound
            and (
                str(self.data.get("full_record", "")).strip() or self.files.get("full_record_file")
            )
        )

    def sections(self) -> list[dict[str, Any]]:
        """The game's blocks of fields, bound, for the template."""
        blocks: list[Section] = self.game.sections(self)
        return [{"section": s, "fields": [self[name] for name in s.fields]} for s in blocks]

    # -- building the record ------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        data = self.cleaned_data
        text = data.get("full_record", "").strip()
        upload = data.get("full_record_file")
        if upload is not None:
            if upload.size > MAX_UPLOAD:
                self.add_error("full_record_file", _("A play log is at most 1 MB."))
                return {}
            text = upload.read().decode("utf-8", errors="replace")
        if text:
            field = "full_record_file" if upload is not None else "full_record"
            try:
                parsed = json.loads(text, parse_constant=_not_json)
            except (ValueError, RecursionError) as exc:  # not JSON, or a number too long to read
                self.add_error(field, _("Not JSON: %(error)s") % {"error": exc})
                return {}
            if not isinstance(parsed, dict):
                self.add_error(field, _("A play log is one JSON object, written {…}."))
                return {}
            return parsed
        return self.game.record(self, data)

    # -- the engine's errors, next to their fields ---------------------------------------------
    def field_for(self, path: str) -> str | None:
        """The form field an engine error path concerns (``None``: the whole form)."""
        head, player = _head_and_player(path)
        if self.data.get("full_record", "").strip():
            return "full_record"
        if self.files.get("full_record_file"):
            return "full_record_file"
        name = self.game.field_for(head, player)
        return name if name in self.fields else None

    def attach_engine_errors(self, errors: tuple[dict[str, Any], ...]) -> None:
        """Each engine error next to its field, in the scorer's language and words: players
        by their display names, no internal code (the API keeps the codes)."""
        names = {p.handle: p.shown_name for p in self.match.seated_players()}
        pattern = (
            re.compile(r"'?\b(" + "|".join(map(re.escape, names)) + r")\b'?") if names else None
        )
        for error in errors:
            message = localize(error, names)
            if pattern is not None:  # handles inside lists and longer texts
                message = pattern.sub(lambda m: names[m.group(1)], message)
            label = self.game.problem_label(*_head_and_player(error["path"]))
            if label is not None:
                self.problem_labels[message] = label
            self.add_error(self.field_for(error["path"]), message)

    def offer_number(self, number: int) -> None:
        """Show the form again as the entry of deal ``number`` (its number was taken)."""
        data = QueryDict(mutable=True)
        data.update(self.data)
        data["number"] = str(number)
        self.data = data

    def error_summary(self) -> list[dict[str, str]]:
        """Every problem with the field it concerns, for the summary at the top."""
        items = [{"anchor": "", "label": "", "message": str(e)} for e in self.non_field_errors()]
        for name, field in self.fields.items():
            for e in self.errors.get(name, []):
                label = self.problem_labels.get(str(e), str(field.label))
                items.append({"anchor": f"field-{name}", "label": label, "message": str(e)})
        return items


class CorrectionForm(DealEntryForm):
    """A stored deal's entry form, prefilled, with the reason for the change."""

    reason = forms.CharField(
        label=_("Why the deal changes"),
        max_length=500,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )


def _head_and_player(path: str) -> tuple[str, str]:
    """An engine error's path as its record key and the player it names, if any:
    ``point_cards.aki`` → (``point_cards``, ``aki``), ``point_cards`` → (…, "")."""
    head, _dot, rest = path.partition(".")
    return head.split("[")[0], rest.split("[")[0].split(".")[0]


def _not_json(constant: str) -> None:
    """``NaN`` and ``Infinity`` are Python's, not JSON's (nor the database's)."""
    raise ValueError(f"{constant} is not a JSON number")
