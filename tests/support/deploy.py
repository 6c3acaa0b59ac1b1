"""Where the deployment files are, and what the tests read out of them."""

from __future__ import annotations

import re
from pathlib import Path

__all__ = [
    "COMPOSE",
    "DOCKERFILE",
    "DOCKERIGNORE",
    "HAPROXY_CFG",
    "HOST_NOFILE",
    "ROOT",
    "global_maxconn",
]

ROOT = Path(__file__).resolve().parents[2]
HAPROXY_CFG = ROOT / "deploy" / "haproxy.cfg"
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"

HOST_NOFILE = 20_000
"""A common hard open-file limit the defaults must start under."""


def global_maxconn() -> int:
    text = HAPROXY_CFG.read_text()
    section = re.search(r"^global\n(.*?)^\S", text, re.MULTILINE | re.DOTALL)
    assert section is not None, "haproxy.cfg has no global section"
    found = re.search(r"^\s+maxconn\s+(\d+)\s*$", section.group(1), re.MULTILINE)
    assert found is not None, "haproxy.cfg sets no global maxconn (HAProxy would size it)"
    return int(found.group(1))
