"""The page's size the docs state (README.md, docs/operations.md, docs/performance.md) is
the size the server sends: ``index.html`` with its styles and modules inside, plain and
gzipped, within a few per cent (the docs round; a client change that grows the page by
more must update them)."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from server import Settings, create_app

ROOT = Path(__file__).resolve().parents[3]
SLACK = 0.06


async def _page() -> tuple[int, int]:
    """The page's bytes as sent gzipped, and unzipped (no lifespan: files need none)."""
    transport = httpx.ASGITransport(app=create_app(Settings()))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        zipped = await http.get("/", headers={"accept-encoding": "gzip"})
        assert zipped.headers["content-encoding"] == "gzip"
        size = int(zipped.headers["content-length"])
        plain = await http.get("/", headers={"accept-encoding": "identity"})
        assert "content-encoding" not in plain.headers
        return size, len(plain.content)


def _near(stated_kib: float, actual: int) -> bool:
    return abs(stated_kib * 1024 - actual) <= SLACK * actual


async def test_the_docs_state_the_page_s_real_size() -> None:
    zipped, plain = await _page()
    readme = (ROOT / "README.md").read_text()
    operations = (ROOT / "docs" / "operations.md").read_text()
    performance = (ROOT / "docs" / "performance.md").read_text()
    stated = [float(m) for m in re.findall(r"the page goes gzipped \(about (\d+) KiB\)", readme)]
    stated += [float(m) for m in re.findall(r"one request \(about (\d+) KiB gzipped\)", operations)]
    (both,) = re.findall(r"; (\d+) KiB, ([\d.]+) KiB gzipped now", performance)
    assert len(stated) == 2, stated
    for figure in stated:
        assert _near(figure, zipped), (figure, zipped / 1024)
    assert _near(float(both[0]), plain), (both[0], plain / 1024)
    assert _near(float(both[1]), zipped), (both[1], zipped / 1024)
