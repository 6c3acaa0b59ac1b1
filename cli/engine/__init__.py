"""The engine's commands: ``perft``, ``solve``, ``analyze`` and a bots' ``tournament``."""
