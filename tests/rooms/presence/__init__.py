"""Tests of rooms/presence/: leases, sweeps across workers and gathered spectators."""
