"""The web side of Twenty-Two: the dealer and each player's card in the last trick.

Only the players still in are on the form (the engine's ``next_deal``), and the
dealer is filled in when the rules name them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.games.base import (
    DemoMatch,
    EntryForm,
    LeagueGame,
    PlannedMatch,
    Section,
    Variant,
    demo_deals,
)
from tournaments.games.fields import card_field, dealer_field, player_choices, suit_pad_sections
from tournaments.games.statistics import TRICKS, Played, Statistic, count_tricks


class TwentyTwoLeague(LeagueGame):
    name = "twentytwo"
    name_en = "Twenty-Two"
    name_ja = "22"
    hint = _("The dealer, and each player's card in the last trick (e.g. SK).")
    tie_break = _("out at 22 penalty points (gambling: 30); the last player in wins")
    record_words = {
        "last_trick": _("last trick"),
        "buy_back": _("buy-back"),
        "hand_size": _("hand size"),
    }
    blank_rows = 20
    federation = (PlannedMatch(4), PlannedMatch(6, {"gambling": True}))
    variants = (
        Variant(
            "gambling",
            _("Penalties"),
            (
                (False, _("out at 22: A 11, K Q J 10 10")),
                (True, _("gambling: out at 30, A 14, K 13, Q 12, J 11")),
            ),
        ),
    )
    sheet_rules = ({}, {"gambling": True})  # buy-backs are gambling's

    def add_fields(self, form: EntryForm) -> None:
        form.fields["dealer"] = dealer_field(form)
        for p in form.players:
            form.fields[f"last_{p.handle}"] = card_field(
                _("%(name)s: last card") % {"name": p.shown_name}
            )
        if form.match.rules.get("gambling"):
            form.fields["buy_back"] = forms.MultipleChoiceField(
                label=_("Bought back (gambling cucumber)"),
                required=False,
                widget=forms.CheckboxSelectMultiple,
                choices=player_choices(form),
            )

    def sections(self, form: EntryForm) -> list[Section]:
        lasts = [f"last_{h}" for h in form.handles]
        return suit_pad_sections(form.game_field_names, lasts, self.deck(form), hint=self.hint)

    def record(self, form: EntryForm, data: Mapping[str, Any]) -> dict[str, Any]:
        record: dict[str, Any] = {
            "dealer": data["dealer"],
            "last_trick": {h: data.get(f"last_{h}", "").strip() for h in form.handles},
        }
        if data.get("buy_back"):
            record["buy_back"] = [h for h in form.handles if h in data["buy_back"]]
        return record

    def initial(self, record: Mapping[str, Any], handles: list[str]) -> dict[str, Any]:
        values: dict[str, Any] = {"dealer": record.get("dealer")}
        values.update({f"last_{h}": record.get("last_trick", {}).get(h, "") for h in handles})
        if record.get("buy_back"):
            values["buy_back"] = list(record["buy_back"])
        return values

    def field_for(self, head: str, player: str) -> str | None:
        if head == "last_trick":
            return f"last_{player}"
        return {"dealer": "dealer", "draw": "dealer", "buy_back": "buy_back"}.get(head)

    def note(self, details: Mapping[str, Any], names: Mapping[str, str]) -> str:
        losers = ", ".join(names.get(h, h) for h in details.get("losers", []))
        return f"{losers} −{details.get('penalty')}"

    def outcome(self, details: Mapping[str, Any], finished: bool, names: Mapping[str, str]) -> str:
        if not details.get("eliminated"):
            return ""
        out = sorted(details["eliminated"].items(), key=lambda item: item[1])
        gone = ", ".join(
            gettext("%(name)s (deal %(n)s)") % {"name": names[h], "n": n} for h, n in out
        )
        return gettext("Out: %(players)s") % {"players": gone}

    def progress_text(self, done: int, of: int | None) -> str:
        """Eliminations: the players put out so far, of all but the survivor."""
        return gettext("%(n)s of %(of)s players out") % {"n": done, "of": of}

    counts = (
        "lost",
        "penalty",
        "shared",
        "bought",
        "dealt",
        "dealt_lost",
        "eliminated",
        "full_plays",
        "tricks",
    )
    statistics = (
        Statistic(
            "lost",
            _("Deals lost"),
            _("Deals the player held the highest last card in, of all played."),
            "lost",
            "deals",
            percent=True,
        ),
        Statistic(
            "penalty",
            _("Penalty per deal"),
            _("Penalty points the player took (not bought back), per deal."),
            "penalty",
            "deals",
        ),
        Statistic(
            "shared",
            _("Shared losses"),
            _("Deals lost together with another player (cards of equal strength)."),
            "shared",
        ),
        Statistic(
            "bought", _("Bought back"), _("Penalties the player bought back (gambling)."), "bought"
        ),
        Statistic(
            "dealt_lost",
            _("Lost as dealer"),
            _("Deals the player dealt and lost, of those they dealt."),
            "dealt_lost",
            "dealt",
            percent=True,
        ),
        Statistic(
            "eliminated",
            _("Put out"),
            _("Matches the player was put out of at the penalty limit, of all played."),
            "eliminated",
            "matches",
            percent=True,
        ),
        TRICKS,
    )

    def player_numbers(
        self, deals: Sequence[Played], handle: str, match: Mapping[str, Any]
    ) -> dict[str, int]:
        """From each deal's losers, penalty and buy-backs, and the match's eliminations."""
        n = dict.fromkeys(self.counts, 0)
        for record, details, score, _scores in deals:
            losers = details.get("losers", [])
            lost = handle in losers
            dealt = record.get("dealer") == handle
            n["lost"] += lost
            n["penalty"] -= score
            n["shared"] += lost and len(losers) > 1
            n["bought"] += handle in details.get("buy_back", [])
            n["dealt"] += dealt
            n["dealt_lost"] += dealt and lost
            count_tricks(n, details, handle)
        n["eliminated"] = int(handle in match.get("eliminated", {}))
        return n

    def demo_matches(self) -> list[DemoMatch]:
        seated = ["aki", "ben", "chika", "dai"]
        return [DemoMatch(2, "Table 1", seated, demo_deals(self, 2026, seated))]
