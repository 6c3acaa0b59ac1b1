"""Tests of the WebSocket endpoint (server/ws/socket.py): real clients against a live server."""
