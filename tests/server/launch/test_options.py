"""uvicorn's options for the server: the fastest protocols installed, or its stock ones."""

from __future__ import annotations

import pytest
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from server import Settings
from server.fastpath.uvicorn_protocols import ReleasingWebSockets, UpgradeReleasingHttpTools
from server.launch import uvicorn_options


def test_uvicorn_options_pick_fast_implementations_without_compression() -> None:
    options = uvicorn_options(Settings(max_frame_bytes=8192, ping_interval=7.0))
    # uvicorn's sans-I/O and httptools protocols, which free a connection once it ends
    assert options["ws"] is ReleasingWebSockets
    assert issubclass(options["ws"], WebSocketsSansIOProtocol)
    assert options["http"] is UpgradeReleasingHttpTools
    assert issubclass(options["http"], HttpToolsProtocol)
    assert options["ws_per_message_deflate"] is False
    assert options["ws_max_size"] == 8192 and options["ws_ping_interval"] == 7.0
    assert options["loop"] in {"uvloop", "asyncio"}


def test_uvicorn_options_fall_back_to_uvicorn_s_names_without_the_sans_io_protocol(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An older uvicorn (no sans-I/O implementation): its own protocols by name, and the
    module that subclasses both is not needed."""
    import uvicorn.config

    older = {k: v for k, v in uvicorn.config.WS_PROTOCOLS.items() if k != "websockets-sansio"}
    monkeypatch.setattr(uvicorn.config, "WS_PROTOCOLS", older)
    options = uvicorn_options(Settings())
    assert options["http"] == "httptools" and options["ws"] == "websockets"


def test_without_the_fastpath_uvicorn_runs_its_stock_protocols() -> None:
    options = uvicorn_options(Settings(fastpath=False))
    assert options["http"] == "httptools" and options["ws"] == "websockets-sansio"
    assert options["ws_per_message_deflate"] is False  # the same wire both ways
