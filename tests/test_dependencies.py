"""The installed dependencies are the ones pyproject.toml declares and constraints.txt pins.

server/fastpath/ and rooms/backends/redis/ reach into uvicorn, websockets, Starlette and
redis-py below their public API, so those four carry an upper bound just above the
versions tested; a version outside a declared range fails here, naming the package, the
version found and the range, before it can fail somewhere obscure. The ranges are read
from pyproject.toml (the source, even before a re-install) and the versions from the
installed distributions (importlib.metadata).
"""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
REACHED_INTO = ("starlette", "uvicorn", "websockets", "redis")
"""Packages whose internals the code uses: each needs an upper bound."""


def declared(extra: str | None = None) -> list[Requirement]:
    texts = PROJECT["dependencies"] if extra is None else PROJECT["optional-dependencies"][extra]
    own = canonicalize_name(PROJECT["name"])
    return [r for r in map(Requirement, texts) if canonicalize_name(r.name) != own]


def pins() -> dict[str, str]:
    found: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        text = line.split("#", 1)[0].strip()
        if text:
            name, _, version = text.partition("==")
            assert version, f"constraints.txt: {line!r} is not name==version"
            found[canonicalize_name(name)] = version.strip()
    return found


def installed(name: str) -> str | None:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


@pytest.mark.parametrize("extra", [None, "bench", "otel", "sentry", "test", "dev"])
def test_installed_versions_are_in_the_declared_ranges(extra: str | None) -> None:
    outside = []
    for requirement in declared(extra):
        version = installed(requirement.name)
        if version is None:
            outside.append(f"{requirement.name} is not installed (pyproject.toml: {requirement})")
        elif not requirement.specifier.contains(version, prereleases=True):
            outside.append(
                f"{requirement.name} {version} is installed, outside the tested range "
                f"{requirement.specifier} of pyproject.toml"
            )
    assert not outside, (
        "\n".join(outside) + "\n(re-install with ./run, which installs -c constraints.txt)"
    )


def test_packages_reached_into_have_an_upper_bound() -> None:
    by_name = {canonicalize_name(r.name): r for r in declared()}
    for name in REACHED_INTO:
        specifier = by_name[canonicalize_name(name)].specifier
        assert any(spec.operator in {"<", "<=", "==", "~="} for spec in specifier), (
            f"{name}: the code uses its internals; pyproject.toml needs an upper bound, "
            f"has {specifier or 'none'}"
        )


def test_constraints_pin_every_declared_dependency_inside_its_range() -> None:
    pinned = pins()
    for extra in (None, "bench", "test", "dev"):
        for requirement in declared(extra):
            name = canonicalize_name(requirement.name)
            assert name in pinned, f"constraints.txt pins no version of {requirement.name}"
            assert requirement.specifier.contains(pinned[name], prereleases=True), (
                f"constraints.txt pins {requirement.name}=={pinned[name]}, outside "
                f"pyproject.toml's {requirement.specifier}"
            )


def test_the_installed_versions_are_the_pinned_ones() -> None:
    differ = [
        f"{name} {found} is installed, constraints.txt pins {version}"
        for name, version in pins().items()
        if (found := installed(name)) is not None and found != version
    ]
    assert not differ, "\n".join(differ) + "\n(re-install with ./run)"
