"""Display names that are an e-mail address's local part (the default before) are
replaced by a generated name: no one else may see anything taken from an address."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import migrations

# The catalogues may not be compiled yet when migrations run on a new machine, so the two
# patterns of "Card player %(n)s" are written out here.
PATTERNS = {"ja": "プレイヤー{n}", "zh-hans": "牌友{n}"}


def forwards(apps: Any, schema_editor: Any) -> None:
    Profile = apps.get_model("accounts", "Profile")
    for profile in Profile.objects.select_related("user").iterator():
        email = (profile.user.email or "").split("@")[0]
        username = profile.user.username or ""
        if profile.display_name and profile.display_name in {email[:24], username[:24]}:
            pattern = PATTERNS.get(profile.language, PATTERNS["zh-hans"])
            profile.display_name = pattern.format(n=secrets.randbelow(9000) + 1000)
            profile.save(update_fields=["display_name"])


class Migration(migrations.Migration):
    dependencies = [("accounts", "0002_client_statistics")]
    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
