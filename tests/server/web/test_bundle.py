"""The build-free bundler (server/web/bundle.py): the real client bundles, every module
file is part of it, its folders import one way, and what is outside the subset the bundler
reads is refused by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.web.bundle import BundleError, bundle, parse_module, read_modules
from server.web.page import inline_page

STATIC = Path(__file__).resolve().parents[3] / "static"


def test_the_real_client_bundles_each_module_after_what_it_imports() -> None:
    modules = read_modules(STATIC / "js")
    assert modules[-1].path == "main.js"
    seen: set[str] = set()
    for module in modules:
        assert all(dependency in seen for dependency, _ in module.imports), module.path
        seen.add(module.path)
    files = {p.relative_to(STATIC / "js").as_posix() for p in (STATIC / "js").rglob("*.js")}
    assert files == seen, "a module no page imports is dead code"


# The client's folders in import order (static/js/README.md); "" is the top, main.js.
CLIENT_LAYERS = ("model", "browser", "net", "render", "game", "pages", "")


def test_the_real_client_imports_only_from_its_folder_or_those_before_it() -> None:
    rank = {folder: i for i, folder in enumerate(CLIENT_LAYERS)}
    folders = {path.name for path in (STATIC / "js").iterdir() if path.is_dir()}
    assert folders == set(CLIENT_LAYERS) - {""}, "a new folder needs its place in CLIENT_LAYERS"

    def folder(path: str) -> str:
        return path.rpartition("/")[0]

    backwards = [
        f"{module.path} imports {dependency}"
        for module in read_modules(STATIC / "js")
        for dependency, _ in module.imports
        if rank[folder(dependency)] > rank[folder(module.path)]
    ]
    assert backwards == [], "an import against static/js's layers"


def test_the_real_page_has_no_file_reference_left_but_the_icon() -> None:
    html = inline_page(STATIC).html.decode()
    assert html.count("<script") == 1 and html.count("<style>") == 1
    assert "/js/" not in html.replace("// ---- js/", "") and 'href="/css/' not in html
    assert 'href="/favicon.svg"' in html


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def test_imports_become_reads_of_the_module_that_ran_before(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "main.js": (
                'import {\n  twice,\n  Box as B,\n} from "./lib/math.js";\nB.of(twice(2));\n'
            ),
            "lib/math.js": (
                'import { one } from "../one.js";\n'
                "export function twice(n) { return 2 * n * one; }\n"
                "export class Box { static of(v) { return v; } }\n"
                "export async function later() { return 1; }\n"
                "export const TEN = 10;\n"
            ),
            "one.js": "export const one = 1;\n",
        },
    )
    modules = read_modules(root)
    assert [m.path for m in modules] == ["one.js", "lib/math.js", "main.js"]
    assert modules[1].exports == ("twice", "Box", "later", "TEN")
    text = bundle(modules)
    assert "const $m0 = (() => {\nconst one = 1;\nreturn { one };\n})();" in text
    assert "const { one } = $m0;" in text
    assert "const { twice, Box: B } = $m1;" in text
    assert "export" not in text and "import" not in text


@pytest.mark.parametrize(
    ("source", "complaint"),
    [
        ("export default function f() {}\n", "an export the bundler cannot take"),
        ("export let n = 1;\n", "an export the bundler cannot take"),
        ("const a = 1;\nexport { a };\n", "near line 2"),
        ('export { a } from "./a.js";\n', "an export the bundler cannot take"),
        ('import a from "./a.js";\n', "an import the bundler cannot take"),
        ('import * as a from "./a.js";\n', "an import the bundler cannot take"),
        ('const m = await import("./a.js");\n', "an import the bundler cannot take"),
        ("const here = import.meta.url;\n", "an import the bundler cannot take"),
        ('import { a } from "lit";\n', "only relative paths"),
        ('import { a } from "../../out.js";\n', "leaves the client's folder"),
    ],
)
def test_what_is_outside_the_subset_is_refused_by_name(source: str, complaint: str) -> None:
    with pytest.raises(BundleError, match=complaint):
        parse_module("x.js", source)


def test_a_cycle_a_missing_name_and_a_missing_file_are_refused(tmp_path: Path) -> None:
    cyclic = _tree(
        tmp_path / "cycle",
        {
            "main.js": 'import { b } from "./b.js";\nexport const a = 1;\n',
            "b.js": 'import { a } from "./main.js";\nexport const b = a;\n',
        },
    )
    with pytest.raises(BundleError, match=r"import cycle .*main\.js -> b\.js -> main\.js"):
        read_modules(cyclic)
    missing_name = _tree(
        tmp_path / "name",
        {"main.js": 'import { nope } from "./b.js";\n', "b.js": "export const b = 1;\n"},
    )
    with pytest.raises(BundleError, match=r"imports \['nope'\] that b\.js does not export"):
        read_modules(missing_name)
    missing_file = _tree(tmp_path / "file", {"main.js": 'import { b } from "./b.js";\n'})
    with pytest.raises(BundleError, match=r"main\.js imports b\.js, not a file"):
        read_modules(missing_file)


def test_text_that_would_end_the_inline_block_is_refused(tmp_path: Path) -> None:
    page = (
        '<link rel="stylesheet" href="/css/a.css"><script type="module" src="/js/main.js"></script>'
    )
    root = _tree(
        tmp_path,
        {
            "index.html": page,
            "css/a.css": "p { color: red; }\n",
            "js/main.js": 'export const tag = "</script>";\n',
        },
    )
    with pytest.raises(BundleError, match="unsafe in an inline script"):
        inline_page(root)
    (root / "js" / "main.js").write_text("export const ok = 1;\n")
    (root / "css" / "a.css").write_text('p::after { content: "</style>"; }\n')
    with pytest.raises(BundleError, match="would end the inline block"):
        inline_page(root)
