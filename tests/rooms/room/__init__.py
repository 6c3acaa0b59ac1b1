"""Tests of rooms/room/: the sans-I/O room, command by command, with no event loop."""
