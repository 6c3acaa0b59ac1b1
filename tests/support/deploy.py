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
    "haproxy_sections",
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


def haproxy_sections() -> dict[str, list[str]]:
    """Each section of haproxy.cfg (``"backend rooms"``) and its lines, whitespace
    collapsed, without comments or conditional blocks' markers."""
    found: dict[str, list[str]] = {}
    current: list[str] = []
    for raw in HAPROXY_CFG.read_text().splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line or line.lstrip().startswith("."):
            continue
        if not line.startswith(" "):
            current = found.setdefault(line.strip(), [])
        else:
            current.append(" ".join(line.split()))
    return found
