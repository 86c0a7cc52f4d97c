"""The deal entry form of the table-side page, one shape per game.

The form only turns what the scorer typed into a deal record; the engine (via
``actions.enter_deal``) judges it, and its errors are put back next to the
fields they concern (``attach_engine_errors``).  What was typed is never lost:
the form is shown again with the scorer's input.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.games.declarer import TRUMPS
from tournaments.models import Match, Player

TRUMP_LABELS = {
    "black": "黒 black",
    "red": "赤 red",
    "igo-notrump": "囲碁将棋部ノートラ igo no-trump",
    "notrump": "ノートラ no-trump",
    "chigaku-notrump": "地学部ノートラ chigaku no-trump",
    "spades": "♠ スペード spades",
    "hearts": "♡ ハート hearts",
    "diamonds": "♢ ダイヤ diamonds",
    "clubs": "♣ クラブ clubs",
}


MAX_UPLOAD = 1024 * 1024


def _codes(text: str) -> list[str]:
    return [c for c in text.replace(",", " ").split() if c]


class DealEntryForm(forms.Form):
    """Fields are added per game in ``__init__``; ``record()`` builds the deal record."""

    full_record = forms.CharField(
        label=_("Full play log (JSON), instead of the fields above"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
    )
    full_record_file = forms.FileField(label=_("…or upload it as a .json file"), required=False)
    number = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match = match
        self.players: list[Player] = match.seated_players()
        self.handles = [p.handle for p in self.players]
        getattr(self, f"_fields_{match.game}")()

    # -- per game ------------------------------------------------------------------------
    def _fields_napoleon(self) -> None:
        choices = [(p.handle, p.display_name) for p in self.players]
        total = 20 if self.match.game == "napoleon" else 40
        self.fields["declarer"] = forms.ChoiceField(
            label=_("Declarer (ナポレオン/レットラー)"), choices=choices
        )
        self.fields["count"] = forms.IntegerField(
            label=_("Count declared (立枚数)"), min_value=1, max_value=total
        )
        self.fields["trump"] = forms.ChoiceField(
            label=_("Trump (切り札)"), choices=[(t, TRUMP_LABELS[t]) for t in TRUMPS]
        )
        if self.match.game == "rettler" and len(self.players) == 5:
            self.fields["allowed"] = forms.TypedChoiceField(
                label=_("Adjutants declared (副官の数)"), choices=[(1, "1"), (2, "2")], coerce=int
            )
        self.fields["adjutant_cards"] = forms.CharField(
            label=_("Adjutant cards named (副官の指名), e.g. SA"), required=False
        )
        self.fields["adjutants"] = forms.MultipleChoiceField(
            label=_("Adjutants found (副官)"),
            choices=choices,
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
        for p in self.players:
            self.fields[f"pc_{p.handle}"] = forms.IntegerField(
                label=p.display_name, min_value=0, max_value=total, initial=0,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "points"}),
            )  # fmt: skip
        self.fields["discarded"] = forms.IntegerField(
            label=_("Point cards discarded face up (捨て札の点札)"), min_value=0, initial=0, required=False,
            widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "points"}),
        )  # fmt: skip
        self.point_total = total

    _fields_rettler = _fields_napoleon

    def _fields_comp13(self) -> None:
        for p in self.players:
            self.fields[f"cap_{p.handle}"] = forms.CharField(
                label=_("%(name)s: captured (取札)") % {"name": p.display_name}, required=False,
                widget=forms.TextInput(attrs={"class": "cards", "autocomplete": "off"}),
            )  # fmt: skip
            self.fields[f"hand_{p.handle}"] = forms.CharField(
                label=_("%(name)s: face cards left in hand") % {"name": p.display_name}, required=False,
                widget=forms.TextInput(attrs={"class": "cards", "autocomplete": "off"}),
            )  # fmt: skip

    def _fields_packing(self) -> None:
        for p in self.players:
            self.fields[f"packs_{p.handle}"] = forms.CharField(
                label=_("%(name)s: packs, one per line") % {"name": p.display_name}, required=False,
                widget=forms.Textarea(attrs={"rows": 2, "class": "cards", "autocomplete": "off"}),
            )  # fmt: skip

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
            try:
                return json.loads(text)
            except (json.JSONDecodeError, RecursionError) as exc:
                field = "full_record_file" if upload is not None else "full_record"
                self.add_error(field, _("Not JSON: %(error)s") % {"error": exc})
                return {}
        return getattr(self, f"_record_{self.match.game}")(data)

    def _record_napoleon(self, data: dict[str, Any]) -> dict[str, Any]:
        declaration: dict[str, Any] = {
            "player": data["declarer"],
            "count": data["count"],
            "trump": data["trump"],
        }
        if "allowed" in data:
            declaration["adjutants"] = data["allowed"]
        return {
            "declaration": declaration,
            "adjutant_cards": _codes(data.get("adjutant_cards", "")),
            "adjutants": [h for h in self.handles if h in data.get("adjutants", [])],
            "point_cards": {h: data[f"pc_{h}"] for h in self.handles},
            "discarded_point_cards": data.get("discarded") or 0,
        }

    _record_rettler = _record_napoleon

    def _record_comp13(self, data: dict[str, Any]) -> dict[str, Any]:
        return {
            "captured": {h: _codes(data.get(f"cap_{h}", "")) for h in self.handles},
            "hand_faces": {h: _codes(data.get(f"hand_{h}", "")) for h in self.handles},
        }

    def _record_packing(self, data: dict[str, Any]) -> dict[str, Any]:
        return {
            "packs": {
                h: [
                    _codes(line) for line in data.get(f"packs_{h}", "").splitlines() if line.strip()
                ]
                for h in self.handles
            }
        }

    # -- the engine's errors, next to their fields ---------------------------------------------
    def field_for(self, path: str) -> str | None:
        """The form field an engine error path concerns (``None``: the whole form)."""
        head, _, rest = path.partition(".")
        head = head.split("[")[0]
        player = rest.split("[")[0].split(".")[0]
        if self.data.get("full_record", "").strip():
            return "full_record"
        if self.files.get("full_record_file"):
            return "full_record_file"
        mapping = {
            "declaration": {"player": "declarer", "count": "count", "trump": "trump", "adjutants": "allowed"}.get(player),
            "adjutant_cards": "adjutant_cards",
            "adjutants": "adjutants",
            "discarded_point_cards": "discarded",
            # The sum of all point cards is shown under the last field of the block.
            "point_cards": f"pc_{player}" if player else "discarded",
            "captured": f"cap_{player}",
            "hand_faces": f"hand_{player}",
            "packs": f"packs_{player}",
        }  # fmt: skip
        name = mapping.get(head)
        return name if name in self.fields else None

    def attach_engine_errors(self, errors: tuple[dict[str, str], ...]) -> None:
        for error in errors:
            self.add_error(self.field_for(error["path"]), f"{error['message']} ({error['code']})")
