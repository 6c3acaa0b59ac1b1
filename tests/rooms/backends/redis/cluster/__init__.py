"""Tests of rooms/backends/redis/cluster/: store and bus on a private Redis Cluster."""
