"""Tests of the WebSocket endpoint (server/websocket.py): real clients against a live server."""
