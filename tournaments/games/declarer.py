"""The web side shared by Napoleon and Rettler: declaration, adjutants, point cards.

Ratings: two teams, the army (declarer and adjutants) and the coalition, ranked
by the deal's outcome.  Within the army the declarer weighs twice an adjutant
(OpenSkill's per-player weights), so the declarer gains or loses most.  The
deal's multiplier (appendix C: ×1, ×2, ×4 or ×16 by the count declared when the
army wins, by the cards it took when it loses; 全付け, 240 = 4 × 60, counts as
×4) scales the change of mu by 1 + log2(multiplier): 1, 2, 3 and 5 times the
library's update, so that each doubling of the stake moves the ratings one
step further without a ×16 deal swamping a season.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from django import forms
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from engine.games.declarer import TRUMPS, DeclarerGame
from tournaments.games.base import EntryForm, LeagueGame, RatedTeams, Section
from tournaments.games.fields import (
    card_field,
    chips,
    codes,
    number_field,
    player_choices,
    range_hint,
    suit_pad_sections,
)
from tournaments.games.statistics import Played, count_tricks

TRUMP_LABELS = {
    "black": _("black"),
    "red": _("red"),
    "igo-notrump": _("igo-club no-trump"),
    "notrump": _("no-trump"),
    "chigaku-notrump": _("chigaku-club no-trump"),
    "spades": _("♠ spades"),
    "hearts": _("♡ hearts"),
    "diamonds": _("♢ diamonds"),
    "clubs": _("♣ clubs"),
}
"""Each trump's one name in the reader's language: the entry form's chips, the history."""
ALL_TAKEN_MULTIPLIER = 4
"""全付け has no multiplier in appendix C; its 240 points are 4 × the 60 of a ×1 deal."""
DECLARER_WEIGHT, ADJUTANT_WEIGHT = 2.0, 1.0
OUTCOMES = {
    "declarer_win": _("won"),
    "coalition_win": _("lost"),
    "all_taken": _("全付け (all taken)"),
}


def count_hint(ranges: Mapping[int, tuple[int, int]]) -> str:
    """The counts a declaration may name, by the adjutants it may allow: ``14–20``, or
    ``20–40 with 1 adjutant, 30–40 with 2`` where the table offers a choice."""
    if len(ranges) == 1:
        return range_hint(*next(iter(ranges.values())))
    return " / ".join(
        ngettext("%(range)s with %(n)s adjutant", "%(range)s with %(n)s adjutants", adjutants)
        % {"range": range_hint(*counts), "n": adjutants}
        for adjutants, counts in sorted(ranges.items())
    )


def stake(multiplier: int) -> float:
    """How far a deal of this multiplier moves mu, relative to the library's update."""
    return 1.0 + math.log2(multiplier)


class DeclarerLeagueGame(LeagueGame):
    point_total: ClassVar[int]
    """Point cards in the deck: 20 (Napoleon), 40 (Rettler)."""
    tie_break = _("cumulative zero-sum points")
    blank_rows = 20
    paper_headings = {
        "declarer": _("Declarer"),
        "trump": _("Trump"),
        "count": _("Count"),
        "allowed": _("Adjutants declared"),
        "adjutant_cards": _("Adjutant cards"),
        "adjutants": _("Adjutants"),
        "pc": _("Point cards"),
        "discarded": _("Discarded point cards"),
    }
    record_words = {
        "declaration": _("declaration"),
        "count": _("count"),
        "trump": _("trump"),
        "adjutant_cards": _("adjutant cards"),
        "adjutants": _("adjutants"),
        "point_cards": _("point cards"),
        "discarded_point_cards": _("point cards discarded"),
    }

    def add_fields(self, form: EntryForm) -> None:
        choices = player_choices(form)
        total = self.point_total
        # The declarer is called by the game's name: ナポレオン at Napoleon, レットラー at Rettler.
        form.fields["declarer"] = chips(form, _("Declarer (%(title)s)") % {"title": self.name_ja})
        form.fields["trump"] = forms.ChoiceField(
            label=_("Trump (切り札)"),
            choices=[(t, TRUMP_LABELS[t]) for t in TRUMPS],
            widget=forms.RadioSelect,
        )
        rules = self.rules
        assert isinstance(rules, DeclarerGame)
        players = len(form.players)
        ranges = {a: rules.count_range(players, a) for a in rules.adjutant_choices(players)}
        form.fields["count"] = number_field(
            _("Count declared (立枚数)"),
            css="count",
            hint=count_hint(ranges),
            min_value=min(low for low, _high in ranges.values()),
            max_value=max(high for _low, high in ranges.values()),
        )
        if len(rules.adjutant_choices(len(form.players))) > 1:  # Rettler at 5: one or two
            form.fields["allowed"] = forms.TypedChoiceField(
                label=_("Adjutants declared (副官の数)"),
                choices=[(1, "1"), (2, "2")],
                coerce=int,
                widget=forms.RadioSelect,
            )
        form.fields["adjutant_cards"] = card_field(
            _("Adjutant cards named (副官の指名), e.g. SA"), required=False
        )
        form.fields["adjutants"] = forms.MultipleChoiceField(
            label=_("Adjutants found (副官)"),
            choices=choices,
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
        for p in form.players:
            form.fields[f"pc_{p.handle}"] = number_field(
                p.shown_name, min_value=0, max_value=total, required=False
            )
        # The last player's point cards follow from the total (the page fills them in).
        last = form.fields[f"pc_{form.players[-1].handle}"]
        last.widget.attrs.update({"data-derived": "1", "data-advance": ""})
        form.fields["discarded"] = number_field(
            _("Point cards discarded face up (捨て札の点札)"),
            min_value=0,
            max_value=rules.widow_size(players),
            initial=0,
            required=False,
        )
        form.point_total = total

    card_keys = frozenset({"adjutant_cards", "cards", "hands", "widow", "discards"})

    def value_text(self, keys: Sequence[str], value: str) -> str | None:
        # the trump declared; the suit a joker lead names (a play's ``suit``)
        if keys and keys[-1] in ("trump", "suit") and value in TRUMP_LABELS:
            return str(TRUMP_LABELS[value])
        return super().value_text(keys, value)

    def sections(self, form: EntryForm) -> list[Section]:
        points = [f"pc_{h}" for h in form.handles]
        head = [n for n in form.game_field_names if n not in points and n != "discarded"]
        assert isinstance(self.rules, DeclarerGame)
        return [
            *suit_pad_sections(head, ["adjutant_cards"], self.deck(form)),
            Section(["discarded"]),
            Section(
                points,
                heading=_("Point cards won (点札)"),
                hint=_("The last player's count follows from the total; change it if needed."),
                grid=True,
                running_sum=True,
            ),
        ]

    def record(self, form: EntryForm, data: Mapping[str, Any]) -> dict[str, Any]:
        declaration: dict[str, Any] = {
            "player": data["declarer"],
            "count": data["count"],
            "trump": data["trump"],
        }
        if "allowed" in data:
            declaration["adjutants"] = data["allowed"]
        return {
            "declaration": declaration,
            "adjutant_cards": codes(data.get("adjutant_cards", "")),
            "adjutants": [h for h in form.handles if h in data.get("adjutants", [])],
            "point_cards": {h: data.get(f"pc_{h}") or 0 for h in form.handles},
            "discarded_point_cards": data.get("discarded") or 0,
        }

    def initial(self, record: Mapping[str, Any], handles: list[str]) -> dict[str, Any]:
        declaration = record.get("declaration", {})
        values: dict[str, Any] = {
            "declarer": declaration.get("player"),
            "count": declaration.get("count"),
            "trump": declaration.get("trump"),
            "adjutant_cards": " ".join(record.get("adjutant_cards", [])),
            "adjutants": list(record.get("adjutants", [])),
            "discarded": record.get("discarded_point_cards", 0),
        }
        if "adjutants" in declaration:
            values["allowed"] = declaration["adjutants"]
        for h in handles:
            values[f"pc_{h}"] = record.get("point_cards", {}).get(h, 0)
        return values

    def field_for(self, head: str, player: str) -> str | None:
        if head == "declaration":
            return {
                "player": "declarer",
                "count": "count",
                "trump": "trump",
                "adjutants": "allowed",
            }.get(player)
        if head == "point_cards":
            # The sum of all point cards is shown under the last field of the block.
            return f"pc_{player}" if player else "discarded"
        return {
            "adjutant_cards": "adjutant_cards",
            "adjutants": "adjutants",
            "discarded_point_cards": "discarded",
        }.get(head)

    def problem_label(self, head: str, player: str) -> str | None:
        # The sum of every player's point cards and the discarded ones: "Point cards", not
        # "Point cards discarded" (the field it is shown under).
        return str(_("Point cards")) if head == "point_cards" and not player else None

    def note(self, details: Mapping[str, Any], names: Mapping[str, str]) -> str:
        multiplier = details.get("multiplier")
        outcome = OUTCOMES.get(str(details.get("outcome")), "")
        line = gettext("%(taken)s taken, %(outcome)s") % {
            "taken": details.get("army_point_cards"),
            "outcome": outcome,
        }
        return line + (f" ×{multiplier}" if multiplier else "")

    bands: ClassVar[tuple[int, int]]
    """Counts declared up to the first are low, from the second high, between them middle:
    the books' stake bands (Napoleon's 5-player table, Rettler's table C.4)."""
    counts = (
        "declared",
        "won_declaring",
        "adjutant",
        "won_adjutant",
        "count_sum",
        "declarer_points",
        "found",
        "all_taken",
        "low",
        "low_made",
        "middle",
        "middle_made",
        "high",
        "high_made",
        "adjutant_points",
        "coalition",
        "won_coalition",
        "coalition_points",
        "full_plays",
        "tricks",
    )

    def player_numbers(
        self, deals: Sequence[Played], handle: str, match: Mapping[str, Any]
    ) -> dict[str, int]:
        """How the player fared as declarer (by the count declared), as adjutant and in the
        coalition, and the tricks they won in full plays.  A declaration is made when the
        declarer's score is positive; 全付け (the army took every point card it had not
        declared) is not made."""
        n = dict.fromkeys(self.counts, 0)
        low, high = self.bands
        for record, details, score, _scores in deals:
            declaration = record.get("declaration", {})
            if declaration.get("player") == handle:
                count = int(declaration.get("count", 0))
                made = score > 0
                band = "low" if count <= low else "high" if count >= high else "middle"
                n["declared"] += 1
                n["won_declaring"] += made
                n["count_sum"] += count
                n["declarer_points"] += score
                n["found"] += bool(details.get("adjutants"))
                n["all_taken"] += details.get("outcome") == "all_taken"
                n[band] += 1
                n[f"{band}_made"] += made
            elif handle in details.get("adjutants", ()):
                n["adjutant"] += 1
                n["won_adjutant"] += score > 0
                n["adjutant_points"] += score
            elif handle in details.get("coalition", ()):
                n["coalition"] += 1
                n["won_coalition"] += score > 0
                n["coalition_points"] += score
            count_tricks(n, details, handle)
        return n

    def rating_teams(
        self,
        record: Mapping[str, Any],
        details: Mapping[str, Any],
        players: list[str],
        scores: Mapping[str, int],
    ) -> RatedTeams:
        declarer = record["declaration"]["player"]
        army = [declarer, *details["adjutants"]]
        coalition = [h for h in players if h not in army]
        won = scores[declarer] > 0
        multiplier = details["multiplier"] or ALL_TAKEN_MULTIPLIER
        weights = [[DECLARER_WEIGHT] + [ADJUTANT_WEIGHT] * (len(army) - 1), [1.0] * len(coalition)]
        return RatedTeams([army, coalition], [0, 1] if won else [1, 0], weights, stake(multiplier))
