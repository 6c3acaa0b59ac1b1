"""Shared test helpers: private Redis, server processes, live servers, clients, waiting."""
