"""Tests of rooms/protocol/: parsing client messages and the room codec."""
