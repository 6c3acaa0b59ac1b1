"""Tests of rooms/backends/redis/: store, bus, pipelining, deadlines, on private Redis."""
