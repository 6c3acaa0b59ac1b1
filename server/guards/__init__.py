"""What a request passes before the server works for it: the Origin check, the security
headers, the guard on state-changing HTTP requests, the admission of newcomers by the
event loop's lag, the connection limit, and the drain."""

from __future__ import annotations

from .admission import LoopLag
from .capacity import ConnectionLimit, fit_file_limit
from .drain import Drain
from .headers import CONTENT_SECURITY_POLICY, SecureStarlette, SecurityHeaders
from .origin import normalize_origin, origin_allowed
from .write_guard import check_write

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "ConnectionLimit",
    "Drain",
    "LoopLag",
    "SecureStarlette",
    "SecurityHeaders",
    "check_write",
    "fit_file_limit",
    "normalize_origin",
    "origin_allowed",
]
