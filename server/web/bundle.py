"""The browser client's ES modules as one script, without a build step.

On a long network a page that loads its modules as files pays round trips for them: over
HTTP/1.1 a browser opens at most six connections to a host, so sixty modules take ten
rounds even when all are announced up front. The server therefore puts the whole client
into the page it serves (server/web/page.py), and this module makes the one script.

It relies on the subset of JavaScript the client is written in, and refuses anything else
with ``BundleError`` (tests/server/web/test_bundle.py bundles the real client, so a
module that leaves the subset fails the build in CI, not in a browser):

- imports are static, at the start of a line, from relative paths:
  ``import { a, b as c } from "./x.js";`` (one or several lines);
- exports are declarations: ``export function``, ``export async function``,
  ``export class``, ``export const`` with one plain name;
- the import graph has no cycle.

Each module becomes a function scope that returns its exports, run in dependency order,
which is what the browser does for an acyclic graph. ``const`` exports are never
reassigned, so copying them out loses none of the live-binding behaviour of real imports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

__all__ = ["BundleError", "Module", "bundle", "read_modules"]

_IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"([^"]+)";[ \t]*$', re.MULTILINE)
_EXPORT = re.compile(
    r"^export\s+(async\s+function\*?|function\*?|class|const)\s+([A-Za-z_$][\w$]*)", re.MULTILINE
)
_ANY_EXPORT = re.compile(r"^\s*export\b", re.MULTILINE)
_ANY_IMPORT = re.compile(r"^\s*import\b|\bimport\s*\(|\bimport\.meta\b", re.MULTILINE)
_NAME = re.compile(r"^[A-Za-z_$][\w$]*$")


class BundleError(ValueError):
    """A module outside the subset the bundler understands, or a broken import graph."""


@dataclass(frozen=True, slots=True)
class Module:
    """One module: its path under the client's js folder, its body, imports and exports."""

    path: str  # "render/board.js"
    body: str  # the source with its import lines and ``export`` keywords taken out
    imports: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]  # (path, ((name, local), …))
    exports: tuple[str, ...]


def _resolve(importer: str, spec: str) -> str:
    if not spec.startswith(("./", "../")):
        raise BundleError(f"{importer}: import from {spec!r}: only relative paths are bundled")
    parts: list[str] = []
    for part in (PurePosixPath(importer).parent / spec).as_posix().split("/"):
        if part == "..":
            if not parts:
                raise BundleError(f"{importer}: {spec!r} leaves the client's folder")
            parts.pop()
        elif part not in (".", ""):
            parts.append(part)
    return "/".join(parts)


def _names(importer: str, clause: str) -> tuple[tuple[str, str], ...]:
    names = []
    for part in clause.replace("\n", " ").split(","):
        item = part.strip()
        if not item:
            continue
        name, _, local = (p.strip() for p in item.partition(" as "))
        local = local or name
        if not (_NAME.match(name) and _NAME.match(local)):
            raise BundleError(f"{importer}: cannot read the import {item!r}")
        names.append((name, local))
    return tuple(names)


def parse_module(path: str, source: str) -> Module:
    """``source`` read as a module of the subset; ``BundleError`` names what is not."""
    imports = tuple(
        (_resolve(path, m.group(2)), _names(path, m.group(1))) for m in _IMPORT.finditer(source)
    )
    body = _IMPORT.sub("", source)
    leftover = _ANY_IMPORT.search(body)
    if leftover:
        line = body[: leftover.start()].count("\n") + 1
        raise BundleError(f"{path}: an import the bundler cannot take (near line {line})")
    exports = tuple(m.group(2) for m in _EXPORT.finditer(body))
    body = _EXPORT.sub(lambda m: f"{m.group(1)} {m.group(2)}", body)
    leftover = _ANY_EXPORT.search(body)
    if leftover:
        line = body[: leftover.start()].count("\n") + 1
        raise BundleError(
            f"{path}: an export the bundler cannot take (near line {line}): only "
            "export function/async function/class/const NAME"
        )
    return Module(path, body, imports, exports)


def read_modules(js_root: Path, entry: str = "main.js") -> list[Module]:
    """Every module reachable from ``entry``, each after the modules it imports."""
    modules: dict[str, Module] = {}
    order: list[Module] = []
    visiting: list[str] = []

    def visit(path: str) -> None:
        if path in modules:
            return
        if path in visiting:
            cycle = " -> ".join([*visiting[visiting.index(path) :], path])
            raise BundleError(f"an import cycle cannot be bundled: {cycle}")
        file = js_root / path
        if not file.is_file():
            raise BundleError(f"{visiting[-1] if visiting else '?'} imports {path}, not a file")
        visiting.append(path)
        module = parse_module(path, file.read_text(encoding="utf-8"))
        for dependency, names in module.imports:
            visit(dependency)
            missing = [name for name, _ in names if name not in modules[dependency].exports]
            if missing:
                raise BundleError(f"{path} imports {missing} that {dependency} does not export")
        visiting.pop()
        modules[path] = module
        order.append(module)

    visit(entry)
    return order


def bundle(modules: list[Module]) -> str:
    """One module script running ``modules`` (in the order given: dependencies first)."""
    slot = {module.path: f"$m{index}" for index, module in enumerate(modules)}
    parts = [f"// {len(modules)} modules of static/js in one script (server/web/bundle.py)\n"]
    for module in modules:
        head = "".join(
            f"const {{ {', '.join(n if n == local else f'{n}: {local}' for n, local in names)} }}"
            f" = {slot[dependency]};\n"
            for dependency, names in module.imports
        )
        tail = f"return {{ {', '.join(module.exports)} }};\n" if module.exports else ""
        parts.append(
            f"// ---- js/{module.path}\nconst {slot[module.path]} = (() => {{\n"
            f"{head}{module.body.rstrip()}\n{tail}}})();\n"
        )
    return "".join(parts)
