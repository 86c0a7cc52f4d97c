"""A club night's form, for a new night and for one changed (a league administrator of its
club): its date, hours, place and name, how its standings count, a final, the table size and
rounds planned; a new night carries a one-time key, so that sent twice it is added once."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from actions import nights
from tournaments.errors import Rejection
from tournaments.messages import localize
from tournaments.models import ClubNight
from tournaments.models.nights import ROUNDS_OUT, TABLE_SIZE_OUT


class ClubNightForm(forms.ModelForm):
    rank_points = forms.CharField(
        label=_("Points per place at a table (table ranks)"),
        required=False,
        help_text=_("First, second, third… separated by commas, e.g. 4, 2, 1, 0 (the default)."),
    )

    class Meta:
        model = ClubNight
        fields = ["date", "starts_at", "ends_at", "name", "venue", "deals_per_match"]
        fields += ["standings", "final", "table_size", "rounds_planned"]
        labels = {
            "final": _("The season's final"),
            "date": _("Date"),
            "starts_at": _("Starts at (optional)"),
            "ends_at": _("Ends at (optional)"),
            "name": _("Name of the night (optional)"),
            "venue": _("Venue"),
            "deals_per_match": _("Deals per match"),
            "standings": _("The night's standings across tables"),
            "table_size": _("Table size (optional)"),
            "rounds_planned": _("Rounds planned (optional)"),
        }
        help_texts = {
            "name": _(
                "Needed when another night of the season has the same date and venue: "
                "Afternoon, Evening, Final…"
            ),
        }
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}),
            "starts_at": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "ends_at": forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
            "table_size": forms.NumberInput(attrs={"inputmode": "numeric"}),
            "rounds_planned": forms.NumberInput(attrs={"inputmode": "numeric"}),
        }
        # The bounds are the model's (its validators); said in words a person can act on.
        error_messages = {
            field: {"invalid": _(problem), "min_value": _(problem), "max_value": _(problem)}
            for field, problem in [("table_size", TABLE_SIZE_OUT), ("rounds_planned", ROUNDS_OUT)]
        }

    key = forms.CharField(widget=forms.HiddenInput, required=False)
    """A new night's one-time key, made when the form is shown: sent twice, it adds the
    night once (``nights.save_night``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["standings"].required = False  # raw points unless chosen
        if self.instance.pk is None:
            self.fields["key"].initial = uuid.uuid4().hex
        else:  # a night changed: the same change twice changes it once
            del self.fields["key"]

    def clean_standings(self) -> str:
        return self.cleaned_data.get("standings") or ClubNight.Standings.POINTS

    def clean_key(self) -> str:
        """The key as the form made it (32 hex digits); anything else is no key."""
        key = self.cleaned_data.get("key") or ""
        return key if len(key) == 32 and all(c in "0123456789abcdef" for c in key) else ""

    def clean_rank_points(self) -> list[int]:
        text = self.cleaned_data.get("rank_points", "").replace("、", ",").strip()
        if not text:
            return []
        parts = [p.strip() for p in text.split(",")]
        if len(parts) > 8 or not all(p.lstrip("-").isdigit() for p in parts):
            raise forms.ValidationError(
                _("Write up to 8 whole numbers separated by commas, e.g. 4, 2, 1, 0.")
            )
        return [int(p) for p in parts]

    def save(self, commit: bool = False) -> ClubNight:
        """The night as the form sets it, not stored (whatever ``commit``): :meth:`saved`
        stores it, through the actions' checks."""
        night: ClubNight = super().save(commit=False)
        night.rank_points = self.cleaned_data.get("rank_points") or []
        if night.pk is None:
            night.form_key = self.cleaned_data.get("key") or ""
        return night

    def saved(self) -> ClubNight | None:
        """The night stored by ``nights.save_night`` (its checks, its calendar sequence), or
        ``None`` with the refusal's problems put on the form's fields."""
        try:
            return nights.save_night(self.save(commit=False))
        except Rejection as refused:  # e.g. another administrator marked a final meanwhile
            for problem in refused.errors:
                self.add_error(problem["path"] or None, localize(problem))
            return None
