from __future__ import annotations

from django import forms
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
        widgets = {"statistics": forms.CheckboxInput(attrs={"data-testid": "stats-switch"})}

    def clean_display_name(self) -> str:
        name = " ".join(str(self.cleaned_data["display_name"]).split())
        if not name:
            raise forms.ValidationError(_("Please enter a display name."))
        return name
