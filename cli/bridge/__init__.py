"""The engine bridge: any program speaking docs/engine-protocol.md plays online.

protocol (the lines, pure) ← driver (the engine process, asyncio) ← the commands:
``tictactoe engine`` (builtin_engine: the project's bots as engines) and ``tictactoe bot``.
"""
