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

from engine.cards import SUIT_ALIASES
from engine.games.comrade import SUIT_NAME
from engine.games.declarer import TRUMPS
from tournaments.actions import NEXT_DEAL_GAMES, next_deal
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


def _suit_counts(text: str) -> dict[str, Any]:
    """``"S4 C1"`` → ``{"spades": 4, "clubs": 1}``; what is not that is passed on for the
    engine to name (an unknown suit, a count that is not a number)."""
    counts: dict[str, Any] = {}
    for token in _codes(text):
        letter = SUIT_ALIASES.get(token[:1].upper())
        suit = SUIT_NAME[letter] if letter is not None else token[:1]
        count = token[1:]
        counts[suit] = int(count) if count.isdigit() else count
    return counts


class DealEntryForm(forms.Form):
    """Fields are added per game in ``__init__``; ``record()`` builds the deal record."""

    full_record = forms.CharField(
        label=_("Full play log (JSON), instead of the fields above"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
    )
    full_record_file = forms.FileField(label=_("…or upload it as a .json file"), required=False)
    number = forms.IntegerField(widget=forms.HiddenInput, required=False)

    hint = ""
    """A line of help above the game's fields."""

    def __init__(self, *args: Any, match: Match, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.match = match
        self.players: list[Player] = match.seated_players()
        self.next_deal: dict[str, Any] = {}
        if match.game in NEXT_DEAL_GAMES:
            # Who plays the next deal, who deals it: the engine's reading of the match so far.
            records = match.deals.filter(deleted_at__isnull=True).order_by("number")
            self.next_deal = next_deal(match, [d.record for d in records])
            seated = self.next_deal.get("players") or [p.handle for p in self.players]
            self.players = [p for p in self.players if p.handle in seated]
        self.handles = [p.handle for p in self.players]
        before = set(self.fields)
        getattr(self, f"_fields_{match.game}")()
        self.game_field_names = [name for name in self.fields if name not in before]

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

    def _dealer_field(self) -> None:
        self.fields["dealer"] = forms.ChoiceField(
            label=_("Dealer (親)"), choices=[(p.handle, p.display_name) for p in self.players],
            initial=self.next_deal.get("dealer"),
        )  # fmt: skip

    def _card_field(self, name: str, label: str, required: bool = True) -> None:
        self.fields[name] = forms.CharField(
            label=label, required=required, max_length=200,
            widget=forms.TextInput(attrs={"class": "cards", "autocomplete": "off"}),
        )  # fmt: skip

    def _fields_twentytwo(self) -> None:
        self.hint = _("The dealer, and each player's card in the last trick (e.g. SK).")
        self._dealer_field()
        for p in self.players:
            self._card_field(
                f"last_{p.handle}", _("%(name)s: last card") % {"name": p.display_name}
            )
        if self.match.rules.get("gambling"):
            self.fields["buy_back"] = forms.MultipleChoiceField(
                label=_("Bought back (gambling cucumber)"), required=False, widget=forms.CheckboxSelectMultiple,
                choices=[(p.handle, p.display_name) for p in self.players],
            )  # fmt: skip

    def _fields_1234(self) -> None:
        self.hint = _(
            "The winner, the order of the drop-outs (1, 2, …), and the cards left in every hand."
        )
        self._dealer_field()
        self.fields["winner"] = forms.ChoiceField(
            label=_("Winner"), choices=[(p.handle, p.display_name) for p in self.players]
        )
        for p in self.players:
            self.fields[f"drop_{p.handle}"] = forms.IntegerField(
                label=_("%(name)s: dropped out as number") % {"name": p.display_name}, required=False,
                min_value=1, max_value=len(self.players),
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "points"}),
            )  # fmt: skip
            self._card_field(
                f"left_{p.handle}", _("%(name)s: cards left") % {"name": p.display_name}, False
            )

    def _fields_bhabhi(self) -> None:
        self.hint = _("Who was left holding cards: the bhabhi.")
        self.fields["bhabhi"] = forms.ChoiceField(
            label=_("Bhabhi (バビ)"), choices=[(p.handle, p.display_name) for p in self.players]
        )

    def _fields_comrade(self) -> None:
        self.hint = _("Bids and tricks won per player as suit letter and count, e.g. S4 C1.")
        self._dealer_field()
        for p in self.players:
            self._card_field(
                f"bids_{p.handle}", _("%(name)s: bids") % {"name": p.display_name}, False
            )
            self._card_field(
                f"won_{p.handle}", _("%(name)s: tricks won") % {"name": p.display_name}, False
            )

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

    def _record_twentytwo(self, data: dict[str, Any]) -> dict[str, Any]:
        record: dict[str, Any] = {
            "dealer": data["dealer"],
            "last_trick": {h: data.get(f"last_{h}", "").strip() for h in self.handles},
        }
        if data.get("buy_back"):
            record["buy_back"] = [h for h in self.handles if h in data["buy_back"]]
        return record

    def _record_1234(self, data: dict[str, Any]) -> dict[str, Any]:
        order = sorted((data[f"drop_{h}"], h) for h in self.handles if data.get(f"drop_{h}"))
        return {
            "dealer": data["dealer"],
            "winner": data["winner"],
            "dropped": [h for _n, h in order],
            "hands_left": {h: _codes(data.get(f"left_{h}", "")) for h in self.handles},
        }

    def _record_bhabhi(self, data: dict[str, Any]) -> dict[str, Any]:
        return {"bhabhi": data["bhabhi"]}

    def _record_comrade(self, data: dict[str, Any]) -> dict[str, Any]:
        return {
            "dealer": data["dealer"],
            "bids": {h: _suit_counts(data.get(f"bids_{h}", "")) for h in self.handles},
            "tricks_won": {h: _suit_counts(data.get(f"won_{h}", "")) for h in self.handles},
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
            "dealer": "dealer",
            "draw": "dealer",
            "last_trick": f"last_{player}",
            "buy_back": "buy_back",
            "winner": "winner",
            "dropped": "winner",
            "hands_left": f"left_{player}",
            "bhabhi": "bhabhi",
            "bids": f"bids_{player}",
            "tricks_won": f"won_{player}",
        }  # fmt: skip
        name = mapping.get(head)
        return name if name in self.fields else None

    def attach_engine_errors(self, errors: tuple[dict[str, str], ...]) -> None:
        for error in errors:
            self.add_error(self.field_for(error["path"]), f"{error['message']} ({error['code']})")
