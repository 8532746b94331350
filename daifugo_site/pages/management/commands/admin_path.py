"""``manage.py admin_path``: print the admin's URL path (production derives it, see
settings/prod.py), so the one who runs the site can find the admin."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.urls import reverse


class Command(BaseCommand):
    help = "Print the URL path of the admin site."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(reverse("admin:index"))
