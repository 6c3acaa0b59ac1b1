"""Tests of rooms/: the async shell (service, cache, watch) here, each package in its folder."""
