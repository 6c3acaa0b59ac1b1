"""Tests of server/metrics/: GET /metrics, one process and several workers."""
