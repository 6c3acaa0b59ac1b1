"""Tests of rooms/fanout/: the hub's fan-out to listeners and the per-connection feed."""
