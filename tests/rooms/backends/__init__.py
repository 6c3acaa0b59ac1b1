"""Tests of rooms/backends/: store, bus and registry contracts; the memory backend."""
