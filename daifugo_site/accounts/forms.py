from __future__ import annotations

from django import forms
from django.urls import reverse_lazy
from django.utils.translation import gettext_lazy as _

from .models import Profile


class ProfileForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Profile
        fields = ["display_name", "language", "statistics"]
        help_texts = {
            "display_name": _("Shown to your opponents and on the leaderboard."),
            "statistics": _(
                "When off, nothing about your games is recorded, and what was recorded is deleted."
            ),
        }
        # Saved as soon as it is toggled (htmx posts the box alone to the switch); the
        # form's Save button does the same without a script.
        widgets = {
            "statistics": forms.CheckboxInput(
                attrs={
                    "data-testid": "stats-switch",
                    "hx-post": reverse_lazy("accounts:statistics_switch"),
                    "hx-trigger": "change",
                    "hx-target": "#stats-saved",
                    "hx-swap": "innerHTML",
                }
            )
        }

    def clean_display_name(self) -> str:
        name = " ".join(str(self.cleaned_data["display_name"]).split())
        if not name:
            raise forms.ValidationError(_("Please enter a display name."))
        return name
