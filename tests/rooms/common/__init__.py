"""Tests of rooms/common/: small shared helpers (JSON text)."""
