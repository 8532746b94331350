from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TutorialsConfig(AppConfig):
    """Interactive lessons and puzzles, judged by the rules engine (``tutorials:index``)."""

    name = "tutorials"
    verbose_name = _("Lessons")

    def load_site_content(self, *, verbosity: int = 1) -> str:
        """Load tutorials/content/ (see :mod:`tutorials.loader`); skip if it is not there."""
        from .loader import content_dir, load_content
        from .mined import load_mined

        result = load_content(verbosity=verbosity)
        if result is None:
            return f"skipped: no content folder yet ({content_dir()})"
        return f"{result.summary()}; {load_mined()}"
