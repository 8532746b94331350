from django.apps import AppConfig


class PagesConfig(AppConfig):
    """The home page, the rules reference (rules, presets, FAQ, glossary), and the
    site-wide management commands."""

    name = "daifugo_site.pages"
    label = "pages"

    def load_site_content(self, *, verbosity: int = 1) -> str:
        """Load content/ (rules sections, examples, options, FAQ, glossary): idempotent."""
        from .loader import load

        return load()
