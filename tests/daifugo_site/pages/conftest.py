"""The rules reference's content fixtures live in tests/conftest.py (other apps use them too)."""
