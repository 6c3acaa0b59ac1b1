"""The bundled client in real Chromium: a bundle runs its modules in the order the browser
would and keeps every import's meaning; the served page runs under its own strict policy
(a blocked inline block would be a console error, which the page guard fails on)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from server.web.bundle import bundle, read_modules

pytestmark = pytest.mark.e2e

MODULES = {
    "main.js": (
        'import {\n  total,\n  Counter as Tally,\n} from "./lib/count.js";\n'
        'import { log } from "./log.js";\n'
        'log("main");\n'
        "const tally = new Tally();\n"
        "tally.add(total(2, 3));\n"
        "document.body.dataset.result = `${tally.value}|${log.entries.join(',')}`;\n"
    ),
    "lib/count.js": (
        'import { log } from "../log.js";\n'
        'log("count");\n'
        "export function total(a, b) { return a + b + hidden; }\n"
        "const hidden = 10; // a module's own name, invisible to the others\n"
        "export class Counter { value = 0; add(n) { this.value += n; } }\n"
    ),
    "log.js": (
        "const entries = [];\n"
        "export const log = Object.assign((what) => entries.push(what), { entries });\n"
        'log("log");\n'
    ),
}


def test_a_bundle_runs_each_module_once_in_import_order(tmp_path: Path, new_page: Any) -> None:
    for name, text in MODULES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    script = bundle(read_modules(tmp_path))
    page = new_page()
    page.set_content(f'<body><script type="module">{script}</script></body>')
    expect(page.locator("body")).to_have_attribute("data-result", "15|log,count,main")


def test_the_served_page_runs_its_inline_client_under_its_policy(new_page: Any) -> None:
    page = new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    response = page.goto("/")
    assert response is not None
    assert "'sha256-" in response.headers["content-security-policy"]
    expect(page.get_by_role("button", name="Classic, 3 + 2")).to_be_enabled()
    files = [url for url in requests if url.endswith((".js", ".css"))]
    assert files == [], f"the page fetched files it carries inside: {files}"
    # a revisit revalidates the page (a 304), and the cached page still runs under its policy
    page.reload()
    expect(page.get_by_role("button", name="Classic, 3 + 2")).to_be_enabled()
