"""A failed start says why in one line: the lifespan's startup failure is reported as the
exception's own last line, not Starlette's whole traceback (which stays in the log at
DEBUG), so ``tictactoe serve`` ends with a line an operator can act on."""

from __future__ import annotations

import logging

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["OneLineStartupFailure", "one_line"]

log = logging.getLogger("tictactoe.server")


def one_line(report: str) -> str:
    """The last non-empty line of a traceback text (the exception and its message)."""
    lines = [line.strip() for line in report.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "unknown error"


class OneLineStartupFailure:
    """ASGI middleware: rewrites ``lifespan.startup.failed`` to one line; else passes."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return

        async def send_one_line(message: Message) -> None:
            if message["type"] == "lifespan.startup.failed" and message.get("message"):
                log.debug("the application failed to start:\n%s", message["message"])
                message = {**message, "message": f"startup failed: {one_line(message['message'])}"}
            await send(message)

        await self.app(scope, receive, send_one_line)
