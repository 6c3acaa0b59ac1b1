"""The browser client's index.html announces its whole ES module graph with
``<link rel="modulepreload">``, so that a browser on a slow link fetches every module in
parallel instead of discovering them one import level (one round trip) at a time. The list
is written by hand; this test keeps it equal to the graph, so it cannot go stale."""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

STATIC = Path(__file__).resolve().parents[1] / "static"
ENTRY = "/js/main.js"
IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']|^\s*import\s*["']([^"']+)["']""",
    re.MULTILINE,
)
DYNAMIC = re.compile(r"\bimport\s*\(")
PRELOAD = re.compile(r'<link rel="modulepreload" href="([^"]+)">')


def _resolve(base: str, spec: str) -> str:
    parts: list[str] = []
    for part in str(PurePosixPath(base).parent / spec).split("/"):
        if part == "..":
            parts.pop()
        elif part not in (".", ""):
            parts.append(part)
    return "/" + "/".join(parts)


def module_graph(entry: str = ENTRY) -> set[str]:
    """Every module reachable from ``entry`` by static imports (URL paths)."""
    seen: set[str] = set()
    todo = [entry]
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        source = (STATIC / url.lstrip("/")).read_text(encoding="utf-8")
        assert not DYNAMIC.search(source), f"{url}: a dynamic import() cannot be preloaded"
        for match in IMPORT.finditer(source):
            spec = match.group(1) or match.group(2)
            assert spec.startswith("."), f"{url} imports {spec!r}: only relative modules"
            todo.append(_resolve(url, spec))
    return seen


def test_every_module_of_the_graph_is_preloaded_and_nothing_else() -> None:
    index = (STATIC / "index.html").read_text(encoding="utf-8")
    preloaded = PRELOAD.findall(index)
    assert len(preloaded) == len(set(preloaded)), "a module is announced twice"
    graph = module_graph()
    assert set(preloaded) == graph, (
        f"missing: {sorted(graph - set(preloaded))}; not in the graph: "
        f"{sorted(set(preloaded) - graph)}"
    )


def test_every_module_file_is_part_of_the_graph() -> None:
    files = {"/" + p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*.js")}
    assert files == module_graph(), "a module no page imports is dead code"


def test_the_graph_walk_follows_relative_and_multi_line_imports() -> None:
    assert _resolve("/js/render/board.js", "../dom.js") == "/js/dom.js"
    assert _resolve("/js/main.js", "./render/game.js") == "/js/render/game.js"
    source = 'import {\n  a,\n  b,\n} from "./x.js";\nexport { c } from "../y.js";\n'
    assert [m.group(1) for m in IMPORT.finditer(source)] == ["./x.js", "../y.js"]
