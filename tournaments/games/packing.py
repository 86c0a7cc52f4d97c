"""The web side of Packing: the packs each player holds at the end of a deal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from engine.cards import parse_card
from engine.games.packing import pack_value
from tournaments.games.base import (
    DemoMatch,
    EntryForm,
    LeagueGame,
    PlannedMatch,
    Section,
    Text,
    demo_deals,
)
from tournaments.games.fields import codes, suit_pad
from tournaments.games.statistics import Played, Statistic


class PackingLeague(LeagueGame):
    name = "packing"
    name_en = "Packing"
    name_ja = "パッキング"
    hint = _("One pack per line, its cards separated by spaces, e.g. HA H5 H3.")
    tie_break = _("first side to the target; sides level at the top play another deal")
    record_words = {"packs": _("packs")}
    federation = (PlannedMatch(4, target=500), PlannedMatch(2, target=500))

    def add_fields(self, form: EntryForm) -> None:
        for p in form.players:
            form.fields[f"packs_{p.handle}"] = forms.CharField(
                label=_("%(name)s: packs, one per line") % {"name": p.shown_name},
                required=False,
                widget=forms.Textarea(
                    attrs={"rows": 2, "class": "cards", "autocomplete": "off", "inputmode": "none"}
                ),
            )

    def sections(self, form: EntryForm) -> list[Section]:
        names = {p.handle: p.shown_name for p in form.players}
        sides = self.rules.sides(form.handles)
        hint: Text = self.hint
        if len(sides) == 2 and len(sides[0]) > 1:
            teams = [" & ".join(names[h] for h in side) for side in sides]
            hint = _("Partners: %(one)s against %(two)s. ") % {"one": teams[0], "two": teams[1]}
            hint = f"{hint}{self.hint}"
        pad = suit_pad(self.deck(form))
        return [Section(form.game_field_names, hint=hint, pack_lines=True, **pad)]

    def record(self, form: EntryForm, data: Mapping[str, Any]) -> dict[str, Any]:
        return {
            "packs": {
                h: [codes(line) for line in data.get(f"packs_{h}", "").splitlines() if line.strip()]
                for h in form.handles
            }
        }

    def initial(self, record: Mapping[str, Any], handles: list[str]) -> dict[str, Any]:
        packs = record.get("packs", {})
        return {f"packs_{h}": "\n".join(" ".join(p) for p in packs.get(h, [])) for h in handles}

    def field_for(self, head: str, player: str) -> str | None:
        return f"packs_{player}" if head == "packs" else None

    def note(self, details: Mapping[str, Any], names: Mapping[str, str]) -> str:
        return " / ".join(str(s) for s in details.get("side_scores", []))

    def progress_text(self, done: int, of: int | None) -> str:
        """The race to the target: the leading side's points (the engine's progress)."""
        if of is None:
            return ngettext("leader: %(n)s point", "leader: %(n)s points", done) % {"n": done}
        return gettext("points to %(of)s: leader %(n)s") % {"n": done, "of": of}

    counts = (
        "packs",
        "pack_points",
        "thrown",
        "thrown_points",
        "margin",
        "partnered",
        "partnered_won",
        "thrown_deals",
    )
    statistics = (
        Statistic(
            "packs",
            _("Packs per deal"),
            _("Packs the player held at the end of a deal, per deal."),
            "packs",
            "deals",
        ),
        Statistic(
            "pack_points",
            _("Pack points per deal"),
            _("The end-of-deal worth of the player's own packs, per deal."),
            "pack_points",
            "deals",
        ),
        Statistic(
            "thrown",
            _("Packs thrown off"),
            _("The player's packs thrown off at the end of a deal, of all they held."),
            "thrown",
            "packs",
            percent=True,
        ),
        Statistic(
            "thrown_points",
            _("Points thrown off per deal"),
            _("The worth of the player's packs thrown off, per deal."),
            "thrown_points",
            "deals",
        ),
        Statistic(
            "thrown_deals",
            _("Deals with a throw-off"),
            _("Deals in which a pack of the player was thrown off, of all played."),
            "thrown_deals",
            "deals",
            percent=True,
        ),
        Statistic(
            "margin",
            _("Margin per deal"),
            _("The player's side's score less the best other side's, per deal."),
            "margin",
            "deals",
        ),
        Statistic(
            "partnered",
            _("Deals with a partner"),
            _("Deals played in partnership (4 or 6 players)."),
            "partnered",
        ),
        Statistic(
            "partnered_won",
            _("Won with a partner"),
            _("Deals the player's partnership scored most in, of those with a partner."),
            "partnered_won",
            "partnered",
            percent=True,
        ),
    )

    def player_numbers(
        self, deals: Sequence[Played], handle: str, match: Mapping[str, Any]
    ) -> dict[str, int]:
        """From each deal's packs (a full play's, replayed, or the summary's) and the
        engine's throw-off per side."""
        n = dict.fromkeys(self.counts, 0)
        for record, details, _score, _scores in deals:
            given = details.get("packs", record.get("packs", {})).get(handle, [])
            cards = [[parse_card(c) for c in pack] for pack in given]
            held = [(sorted(c.code for c in pack), pack_value(pack)) for pack in cards]
            side = next(i for i, s in enumerate(details["sides"]) if handle in s)
            off = [sorted(pack) for pack in details["thrown_off"][side]]
            thrown = []  # the worth of each pack of the side thrown off that the player held
            for pack, value in held:
                if pack in off:
                    off.remove(pack)
                    thrown.append(value)
            scores = details["side_scores"]
            others = [x for i, x in enumerate(scores) if i != side]
            n["packs"] += len(held)
            n["pack_points"] += sum(value for _codes, value in held)
            n["thrown"] += len(thrown)
            n["thrown_points"] += sum(thrown)
            n["thrown_deals"] += bool(thrown)
            n["margin"] += scores[side] - max(others, default=scores[side])
            if len(details["sides"][side]) > 1:
                n["partnered"] += 1
                n["partnered_won"] += scores[side] == max(scores)
        return n

    def demo_matches(self) -> list[DemoMatch]:
        # Partners sit alternately: emi and gen against fumi and hana.
        seated = ["emi", "fumi", "gen", "hana"]
        first = demo_deals(self, 2026, seated, most=1)
        return [DemoMatch(1, "Table 2", seated, [*first, *DEALS])]


DEALS: list[dict[str, Any]] = [
    {
        "packs": {
            "emi": [["HA", "H5", "H3"], ["S10", "S2"], ["DK", "D9", "D4"]],
            "fumi": [["HJ", "H7"], ["CQ", "C8", "C6"], ["CK", "C9"]],
            "gen": [["SA", "SK", "S5"], ["DA", "D3"]],
            "hana": [["DQ", "D10"], ["SJ", "S4"], ["CA", "C3"]],
        }
    },
    {
        "packs": {
            "emi": [["SA", "S9", "S4"], ["HQ", "H8"], ["CA", "C5", "C4"]],
            "fumi": [["DA", "D7"], ["SK", "S3"]],
            "gen": [["DK", "DQ", "D2"], ["CK", "C10", "C2"], ["HA", "H6"], ["SQ", "S8"]],
            "hana": [["C9", "C7"], ["D10", "D5"], ["DJ", "D4"]],
        }
    },
    {
        "packs": {
            "emi": [["HA", "HK", "H9"], ["DA", "D8"], ["SA", "SQ"]],
            "fumi": [["CJ", "C4"], ["HQ", "H3"], ["CA", "C9", "C2"]],
            "gen": [["CK", "C5"], ["DK", "D5"], ["SK", "S10", "S6"], ["HA", "H4"]],
            "hana": [["D9", "D2"], ["SJ", "S7"], ["SA", "S3"]],
        }
    },
    {
        "packs": {
            "emi": [["HA", "HK", "HQ"], ["DA", "DK"], ["SQ", "S9"]],
            "fumi": [["C8", "C4"], ["H10", "H2"]],
            "gen": [["CA", "CK", "C5"], ["SA", "SK", "S6"], ["DQ", "D7"], ["HJ", "H4"]],
            "hana": [["D9", "D3"]],
        }
    },
]
