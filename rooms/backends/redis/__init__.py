"""The Redis backend (``redis://``): store, bus, presence registry and quick-play queue."""
