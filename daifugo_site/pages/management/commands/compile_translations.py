"""``manage.py compile_translations``: compilemessages without GNU gettext."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from daifugo_site.translations import compile_catalogues, find_catalogues


def project_locale_dirs() -> list[Path]:
    """LOCALE_PATHS plus the ``locale/`` folder of each of the project's own apps."""
    base_dir = Path(settings.BASE_DIR).resolve()
    # Installed packages ship compiled catalogues; a venv inside the repo must not count.
    environment = Path(sys.prefix).resolve()
    dirs = [Path(p) for p in settings.LOCALE_PATHS]
    for app_config in apps.get_app_configs():
        app_locale = Path(app_config.path).resolve() / "locale"
        if (
            app_locale.is_relative_to(base_dir)
            and not app_locale.is_relative_to(environment)
            and app_locale.is_dir()
        ):
            dirs.append(app_locale)
    return dirs


class Command(BaseCommand):
    help = "Compile the project's .po catalogues to .mo files (pure Python, no msgfmt needed)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force", action="store_true", help="Recompile even if the .mo is up to date."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        dirs = project_locale_dirs()
        compiled = compile_catalogues(dirs, force=options["force"])
        for po in compiled:
            self.stdout.write(f"compiled {po.relative_to(settings.BASE_DIR)}")
        total = len(find_catalogues(dirs))
        self.stdout.write(
            self.style.SUCCESS(f"{len(compiled)} of {total} catalogues compiled, rest up to date")
        )
