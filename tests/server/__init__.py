"""Tests of server/: the app over HTTP and WebSocket against live servers, settings, fastpath."""
