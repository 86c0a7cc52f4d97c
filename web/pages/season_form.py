"""A season's form: its name, games, dates, who may read it, how its leaderboards rank,
and each of its games' rules variants (declared by the game's web-side module,
``LeagueGame.variants``).  The season is stored by ``actions.seasons.save_season``,
whose checks put any refusal on the form's fields."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from actions import seasons
from tournaments.games import LEAGUE_GAMES
from tournaments.models import Club, Season
from tournaments.textfile import whole_number


def game_choices() -> list[tuple[str, str]]:
    return [(name, game.label) for name, game in LEAGUE_GAMES.items()]


def _variant_field(game: str, key: str) -> str:
    return f"rules_{game}_{key}"


KEPT_WHEN_EMPTY = ("ranking", "qualify_by", "qualify_minimum")
"""The season's settings a form may leave out (or send empty): the season keeps its own."""


class SeasonForm(forms.ModelForm):
    games = forms.MultipleChoiceField(
        label=_("Games"), choices=game_choices, widget=forms.CheckboxSelectMultiple
    )

    class Meta:
        model = Season
        fields = ["name", "games", "starts_on", "ends_on", "public", "require_confirmation"]
        fields += ["ranking", "best_of", "qualify_minimum", "qualify_by"]
        labels = {
            "name": _("Name"),
            "starts_on": _("Starts on"),
            "ends_on": _("Ends on"),
            "public": _("Public"),
            "require_confirmation": _("Deals need a second person's confirmation"),
            "ranking": _("The leaderboards rank by"),
            "best_of": _("Best how many (for best club nights or matches)"),
            "qualify_minimum": _("Qualifying minimum (0: none)"),
            "qualify_by": _("The minimum counts"),
        }
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}),
            "ends_on": forms.DateInput(attrs={"type": "date"}),
            "ranking": forms.RadioSelect,
            "qualify_by": forms.RadioSelect,
            "best_of": forms.NumberInput(attrs={"inputmode": "numeric", "min": 1}),
            "qualify_minimum": forms.NumberInput(attrs={"inputmode": "numeric", "min": 0}),
        }

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instance.club = club
        for name in KEPT_WHEN_EMPTY:
            self.fields[name].required = False  # left out: the season's setting stays
        # Each game's rules variants, by the game's web-side module (LeagueGame.variants),
        # shown while the game is ticked (all of them without a script); a game not ticked
        # keeps none (``_rules``).
        chosen = self.instance.rules if isinstance(self.instance.rules, dict) else {}
        for game, league in LEAGUE_GAMES.items():
            for variant in league.variants:
                now = (chosen.get(game) or {}).get(variant.key, variant.choices[0][0])
                values = [value for value, _words in variant.choices]
                if now not in values:  # set through the API to what the form cannot say
                    continue
                field = forms.ChoiceField(
                    label=f"{league.label}: {variant.label}",
                    choices=[(str(i), words) for i, (_v, words) in enumerate(variant.choices)],
                    initial=str(values.index(now)),
                    required=False,
                    help_text=_("The season's new matches of the game play so."),
                )
                field.shown_for = ("#field-games input", game)  # type: ignore[attr-defined]
                self.fields[_variant_field(game, variant.key)] = field
        variants = [name for name in self.fields if name.startswith("rules_")]
        self.order_fields(["name", "games", *variants])  # a variant beside its game's tick

    def clean(self) -> dict[str, Any]:
        """A setting left out or sent empty keeps the season's (a new season's default).
        A best N left as it was goes with a ranking that counts none; one typed is
        refused with it (``Season.clean``)."""
        data = super().clean() or {}
        for name in KEPT_WHEN_EMPTY:
            if data.get(name) in (None, ""):
                data[name] = getattr(self.instance, name)
        ranking = data.get("ranking") or self.instance.ranking
        given = "best_of" in self.changed_data
        data["best_of"] = seasons.best_of_kept(ranking, data.get("best_of"), given)
        data["rules"] = self._rules(data.get("games") or [])
        return data

    def _rules(self, games: list[str]) -> dict[str, Any]:
        """The season's rules as the form chose them: a game's default choice is left out,
        a variant the form does not offer (set through the API) is kept, a game no longer
        of the season goes."""
        before = self.instance.rules if isinstance(self.instance.rules, dict) else {}
        rules = {g: dict(r) for g, r in before.items() if g in games and isinstance(r, dict)}
        for game in games:
            for variant in LEAGUE_GAMES[game].variants if game in LEAGUE_GAMES else ():
                picked = whole_number(self.cleaned_data.get(_variant_field(game, variant.key)))
                if picked is None or picked >= len(variant.choices):
                    continue  # left out: as it was
                own = rules.setdefault(game, {})
                if picked == 0:
                    own.pop(variant.key, None)
                else:
                    own[variant.key] = variant.choices[picked][0]
        return {g: r for g, r in rules.items() if r}

    def saved(self) -> Season | None:
        """The season stored by ``seasons.save_season`` (its checks), or ``None`` with its
        refusal put on the form's fields (a name taken at the same moment, a setting the
        model refuses)."""
        season = self.save(commit=False)
        season.rules = self.cleaned_data["rules"]
        try:
            return seasons.save_season(season)
        except ValidationError as refused:
            for field, problems in refused.message_dict.items():
                self.add_error(field if field in self.fields else None, problems)
            return None
