"""The distribution as a user installs it: a wheel, not the checkout.

The wheel is built from a copy of the sources, installed (not editable) into a fresh
virtual environment with the pinned versions of constraints.txt, and ``tictactoe serve``
is started from a directory that is not the checkout: it serves the browser client it
carries (``static/`` shipped as ``server/client/``). The runtime install leaves out the
``bench`` extra, and ``tictactoe bench`` says so in one line; a missing static directory
stops ``serve`` in one line. The fast tests hold pyproject.toml's package list complete.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from cli.bench import BENCH_EXTRA
from tests.support.server_process import ServerProcess

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
SETUPTOOLS = PROJECT["tool"]["setuptools"]
SOURCES = (
    "core",
    "rooms",
    "server",
    "client",
    "bench",
    "cli",
    "static",
    "pyproject.toml",
    "setup.py",
    "README.md",
    "LICENSE",
)
"""What the wheel is built from (the Dockerfile's context holds the same)."""


# -- pyproject.toml, read --------------------------------------------------------------------


def test_every_code_folder_and_client_folder_is_a_listed_package() -> None:
    listed = set(SETUPTOOLS["packages"])
    code = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("core", "rooms", "server", "client", "bench", "cli")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert code <= listed, f"add to [tool.setuptools] packages: {sorted(code - listed)}"
    (client,) = (name for name, folder in SETUPTOOLS["package-dir"].items() if folder == "static")
    folders = {
        ".".join((client, *path.relative_to(ROOT / "static").parts)).rstrip(".")
        for path in [ROOT / "static", *(ROOT / "static").rglob("*")]
        if path.is_dir()
    }
    assert folders <= listed, f"add to [tool.setuptools] packages: {sorted(folders - listed)}"
    assert listed <= code | folders, (
        f"listed, but no such folder: {sorted(listed - code - folders)}"
    )


def test_the_license_is_an_spdx_expression_with_its_file() -> None:
    assert PROJECT["project"]["license"] == "MIT"
    assert PROJECT["project"]["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "the tictactoe-server authors" in text


def test_the_bench_extra_is_what_tictactoe_bench_checks_for() -> None:
    extras = PROJECT["project"]["optional-dependencies"]
    names = {requirement.split(">")[0].split("[")[0].strip() for requirement in extras["bench"]}
    assert names == set(BENCH_EXTRA)
    runtime = " ".join(PROJECT["project"]["dependencies"])
    assert not any(name in runtime for name in BENCH_EXTRA), "bench needs stay out of runtime"
    assert any("bench" in requirement for requirement in extras["dev"]), "./run needs bench"


# -- the wheel, installed ----------------------------------------------------------------------


@dataclass(frozen=True)
class Installed:
    venv: Path
    elsewhere: Path  # a directory with no sources in it

    @property
    def bin(self) -> Path:
        return self.venv / "bin"

    def run(
        self, *argv: str, env: dict[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.bin / argv[0]), *argv[1:]],
            cwd=self.elsewhere,
            env={**clean_env(), **(env or {})},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )


def clean_env() -> dict[str, str]:
    """This environment without what would let the checkout leak into the installed one."""
    return {
        name: value
        for name, value in os.environ.items()
        if name not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"}
        and not name.startswith("TICTACTOE_")
        and name != "REDIS_URL"
    }


def pip(*argv: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", *argv],
        capture_output=True,
        text=True,
        timeout=600,
        env=clean_env(),
        check=False,
    )
    assert done.returncode == 0, f"pip {' '.join(argv)}:\n{done.stdout}\n{done.stderr}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    base = tmp_path_factory.mktemp("wheel")
    source, dist, venv, elsewhere = (base / name for name in ("src", "dist", "venv", "cwd"))
    for name in SOURCES:  # a copy: a build writes build/ and *.egg-info next to the sources
        origin = ROOT / name
        if origin.is_dir():
            shutil.copytree(
                origin, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.so")
            )
        else:
            source.mkdir(exist_ok=True)
            shutil.copy2(origin, source / name)
    pip("wheel", "--no-deps", "--wheel-dir", str(dist), str(source))
    (wheel,) = dist.glob("tictactoe_server-*.whl")
    # The venv gets no pip of its own (ensurepip is slow); this pip installs into it.
    done = subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], timeout=120, check=False
    )
    assert done.returncode == 0
    pip(
        "--python",
        str(venv / "bin" / "python"),
        "install",
        "-q",
        "-c",
        str(ROOT / "constraints.txt"),
        str(wheel),
    )
    elsewhere.mkdir()
    yield Installed(venv, elsewhere)


@pytest.mark.process
def test_the_installed_server_serves_the_client_from_any_directory(installed: Installed) -> None:
    where = installed.run("python", "-c", "import server; print(server.__file__)")
    assert where.stdout.strip().startswith(str(installed.venv)), where
    server = ServerProcess(
        installed.elsewhere,
        "--log-level",
        "warning",
        command=[str(installed.bin / "tictactoe")],
        cwd=installed.elsewhere,
        env=clean_env(),
    )
    try:
        server.wait_ready()
        page = httpx.get(f"{server.url}/", timeout=10)
        module = httpx.get(f"{server.url}/js/main.js", timeout=10)
        health = httpx.get(f"{server.url}/healthz", timeout=10)
        route = httpx.get(f"{server.url}/r/q7m2kx9c", timeout=10)  # the client's own route
    finally:
        server.stop()
    assert page.status_code == 200 and '<script type="module"' in page.text, page.text[:300]
    assert module.status_code == 200
    assert module.headers["content-type"].startswith("text/javascript")
    assert module.text == (ROOT / "static" / "js" / "main.js").read_text()
    assert health.status_code == 200
    # a room's page is the same page, carrying the room (null: there is no such room)
    missing_room = '<script type="application/json" id="room-snapshot">null</script>\n'
    assert route.status_code == 200
    assert route.text == page.text.replace("</body>", missing_room + "</body>")


@pytest.mark.process
def test_the_wheel_carries_the_compiled_search_and_its_source(installed: Installed) -> None:
    """setup.py compiles core/ai/_search.c into the wheel; the source travels with it."""
    probe = (
        "from pathlib import Path; import core.ai; from core import Rules;"
        "from core.ai import Solver;"
        "print(Solver(Rules(3, 3, 3)).implementation,"
        " (Path(core.ai.__file__).parent / '_search.c').is_file())"
    )
    done = installed.run("python", "-c", probe)
    assert done.stdout.split() == ["compiled", "True"], done.stderr


@pytest.mark.process
def test_the_runtime_install_leaves_bench_s_extra_out(installed: Installed) -> None:
    for name in BENCH_EXTRA:
        found = installed.run(
            "python", "-c", f"import importlib.util as u; print(u.find_spec({name!r}))"
        )
        assert found.stdout.strip() == "None", f"{name} came with the runtime install"
    helped = installed.run("tictactoe", "--help")
    assert helped.returncode == 0 and "bench" in helped.stdout, helped.stderr
    bench = installed.run("tictactoe", "bench", "--games", "1")
    assert bench.returncode == 2
    lines = bench.stderr.strip().splitlines()
    assert len(lines) == 1 and "tictactoe-server[bench]" in lines[0], bench.stderr


@pytest.mark.process
def test_a_missing_static_directory_stops_serve_in_one_line(installed: Installed) -> None:
    done = installed.run("tictactoe", "serve", env={"TICTACTOE_STATIC_DIR": "/nonexistent"})
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "TICTACTOE_STATIC_DIR" in lines[0] and "/nonexistent" in lines[0]
    assert "serving" not in done.stdout


@pytest.mark.process
@pytest.mark.parametrize(
    ("flag", "value", "extra", "module"),
    [
        ("--otlp-endpoint", "http://127.0.0.1:4318", "otel", "opentelemetry"),
        ("--sentry-dsn", "http://key@127.0.0.1:9/1", "sentry", "sentry_sdk"),
    ],
)
def test_the_runtime_install_asks_for_the_observability_extras(
    installed: Installed, flag: str, value: str, extra: str, module: str
) -> None:
    found = installed.run(
        "python", "-c", f"import importlib.util as u; print(u.find_spec({module!r}))"
    )
    assert found.stdout.strip() == "None", f"{module} came with the runtime install"
    done = installed.run("tictactoe", "serve", flag, value)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert flag in lines[0] and f"tictactoe-server[{extra}]" in lines[0], lines[0]
    assert "serving" not in done.stdout
