"""The deployment files say what is true (deploy/haproxy.cfg run for real: test_deploy_haproxy.py,
and its room affinity under load and a killed server: tests/chaos/test_load_balancer.py).

- docker-compose.yml reads on Compose v1 and v2 (no top-level ``name:``), and its open-file
  limits start on a host whose hard ``nofile`` limit is 20,000 while holding HAProxy's
  ``maxconn``; its replicas run one worker each, as room affinity needs;
- deploy/haproxy.cfg hashes a room's players onto a consistent ring, spreads the
  spectators' path, and checks /readyz in every backend;
- the Dockerfile copies only what exists and what .dockerignore lets into the context, the
  context holds everything pyproject.toml builds from (the browser client included: the
  installed project carries it, so the image copies it nowhere else), and no layer is
  removed later;
- no text says a shutdown closes WebSockets with 1001: the code sends 1012.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from server.ws.close_codes import CloseCode
from tests.support.deploy import (
    COMPOSE,
    DOCKERFILE,
    DOCKERIGNORE,
    HOST_NOFILE,
    ROOT,
    global_maxconn,
    haproxy_sections,
)

# -- docker-compose.yml --------------------------------------------------------------------


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load(COMPOSE.read_text())
    assert isinstance(loaded, dict)
    return loaded


def nofile_limits(service: dict[str, Any]) -> list[int]:
    nofile = service.get("ulimits", {}).get("nofile")
    if nofile is None:
        return []
    if isinstance(nofile, dict):
        return [int(nofile["soft"]), int(nofile["hard"])]
    return [int(nofile)]


def test_compose_file_reads_on_compose_v1_and_v2() -> None:
    data = compose()
    # Compose v1 (1.27+) reads the Compose Specification but refuses a top-level "name:";
    # v2 warns that "version:" is obsolete.
    assert "name" not in data
    assert "version" not in data
    assert set(data) <= {"services", "volumes", "networks", "configs", "secrets"}
    assert {"redis", "app", "lb"} <= set(data["services"])


def test_compose_open_file_limits_fit_a_host_limit_of_20000() -> None:
    services = compose()["services"]
    for name, service in services.items():
        for limit in nofile_limits(service):
            assert limit <= HOST_NOFILE, f"{name}: nofile {limit} fails on most hosts"
    lb = nofile_limits(services["lb"])
    assert lb, "the load balancer needs an explicit nofile limit"
    # Two descriptors per proxied connection, plus listeners, checks and DNS.
    assert 2 * global_maxconn() + 256 <= min(lb), "haproxy.cfg maxconn outgrows lb's nofile"


def test_compose_replicas_run_one_worker_for_room_affinity() -> None:
    # The balancer picks a replica by the room id; a replica's several workers would share
    # its port, and the kernel would spread a room's players over them.
    app = compose()["services"]["app"]
    assert app["environment"]["TICTACTOE_WORKERS"] == "1"
    assert app["deploy"]["replicas"] >= 2


def test_compose_mounts_existing_files() -> None:
    for service in compose()["services"].values():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("./"):
                assert (ROOT / source).exists(), f"compose mounts missing {source}"


# -- deploy/haproxy.cfg: room affinity ------------------------------------------------------


def test_haproxy_hashes_a_rooms_players_and_spreads_its_crowd() -> None:
    config = haproxy_sections()
    frontend = config["frontend web"]
    assert "acl room_path path_reg ^/(ws|r)/[A-Za-z0-9_-]{4,64}$" in frontend
    assert "acl room_api path_reg ^/api/rooms/[A-Za-z0-9_-]{4,64}(/|$)" in frontend
    assert "acl watching path_reg ^/(ws|r)/[A-Za-z0-9_-]{4,64}/watch$" in frontend
    assert "use_backend crowd if watching" in frontend
    assert frontend.index("use_backend crowd if watching") < frontend.index(
        "use_backend rooms if { var(txn.room) -m found }"
    )
    assert "default_backend app" in frontend
    rooms, crowd, app = config["backend rooms"], config["backend crowd"], config["backend app"]
    assert "balance hash var(txn.room)" in rooms and "hash-type consistent" in rooms
    assert "balance leastconn" in crowd and "balance leastconn" in app
    for backend in (rooms, crowd, app):
        assert "option httpchk GET /readyz" in backend
        assert "server-template app 10 app:8000" in backend


def test_the_room_id_rule_matches_the_servers() -> None:
    from rooms.common.ids import new_room_id, valid_room_id

    pattern = re.compile(r"[A-Za-z0-9_-]{4,64}")  # haproxy.cfg's, in each acl above
    for public in (True, False):
        room_id = new_room_id(public=public)
        assert pattern.fullmatch(room_id) and valid_room_id(room_id)
    for bad in ("abc", "a" * 65, "t", "a.b.c.d"):
        assert pattern.fullmatch(bad) is None and not valid_room_id(bad)


# -- Dockerfile and .dockerignore ----------------------------------------------------------


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined."""
    joined = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    found = []
    for line in joined.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            word, _, rest = stripped.partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


def _glob_regex(pattern: str) -> re.Pattern[str]:
    parts = []
    for token in re.split(r"(\*\*|\*|\?)", pattern.strip("/")):
        parts.append({"**": ".*", "*": "[^/]*", "?": "[^/]"}.get(token, re.escape(token)))
    return re.compile("".join(parts) + r"\Z")


def in_context(relative: str) -> bool:
    """Whether .dockerignore lets ``relative`` into the build context (last match wins;
    a pattern matching a folder matches everything in it)."""
    rules = []
    for raw in DOCKERIGNORE.read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            keep = line.startswith("!")
            rules.append((keep, _glob_regex(line.lstrip("!"))))
    parts = Path(relative).parts
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    included = True
    for keep, regex in rules:
        if any(regex.match(prefix) for prefix in prefixes):
            included = keep
    return included


def copies() -> list[tuple[bool, list[str], str]]:
    """(from the context?, sources, destination) of every COPY and ADD."""
    found = []
    for word, rest in instructions():
        if word in {"COPY", "ADD"}:
            args = rest.split()
            flags = [a for a in args if a.startswith("--")]
            paths = [a for a in args if not a.startswith("--")]
            from_context = not any(flag.startswith("--from=") for flag in flags)
            found.append((from_context, paths[:-1], paths[-1]))
    return found


def test_dockerfile_copies_only_what_the_context_holds() -> None:
    for from_context, sources, _ in copies():
        if not from_context:
            continue
        for source in sources:
            if source == ".":
                continue
            assert not any(ch in source for ch in "*?["), f"COPY {source}: name it exactly"
            assert (ROOT / source).exists(), f"COPY {source}: no such file"
            assert in_context(source), f"COPY {source}: .dockerignore leaves it out"


def test_build_context_holds_what_pyproject_builds_from() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    readme = project["project"]["readme"]
    files = [readme if isinstance(readme, str) else readme["file"]]
    for pattern in project["project"].get("license-files", []):
        files += [str(path.relative_to(ROOT)) for path in ROOT.glob(pattern)]
    packages = project.get("tool", {}).get("setuptools", {}).get("packages", {})
    if isinstance(packages, dict):  # [tool.setuptools.packages.find] include = ["core*", ...]
        patterns = packages.get("find", {}).get("include", [])
    else:  # packages = ["core", "core.ai", ...]
        patterns = list(packages)
    folders = {
        path.name
        for pattern in patterns
        for path in ROOT.glob(pattern.split(".")[0])
        if path.is_dir() and (path / "__init__.py").exists()
    }
    assert {"core", "rooms", "server"} <= folders
    # package-dir maps packages to other folders: "server.client" = "static"
    folders |= set(project.get("tool", {}).get("setuptools", {}).get("package-dir", {}).values())
    assert "static" in folders, "the browser client is not packaged"
    files.append("constraints.txt")  # the image installs the versions tested
    files.append("setup.py")  # the solver's C search (core/ai/_search.c)
    named = {source for from_context, sources, _ in copies() if from_context for source in sources}
    for name in sorted(folders) + files:
        assert in_context(name), f"pyproject.toml needs {name}; .dockerignore leaves it out"
        assert "." in named or name in named, f"pyproject.toml needs {name}; no COPY brings it"
    for name in ("tests", ".git", ".venv", "artifacts", "docs", "deploy"):
        assert not in_context(name), f"{name} should stay out of the build context"
    assert "tictactoe" in project["project"]["scripts"]
    entry = dict(instructions())["ENTRYPOINT"]
    assert json.loads(entry)[:2] == ["tictactoe", "serve"]


def test_image_serves_the_client_installed_with_the_project() -> None:
    """The wheel carries static/ (as server/client/): a second copy in the image, or
    TICTACTOE_STATIC_DIR pointing at one, could only drift from the installed client."""
    for from_context, sources, _ in copies():
        assert not (from_context and "static" in sources), "the installed project has static/"
    for word, rest in instructions():
        assert not (word == "ENV" and "TICTACTOE_STATIC_DIR" in rest), rest


def test_dockerfile_has_no_dead_layers_and_runs_unprivileged() -> None:
    copied: list[str] = []  # destinations copied in the current stage so far
    final: list[tuple[str, str]] = []
    for word, rest in instructions():
        if word == "FROM":
            copied, final = [], []
        final.append((word, rest))
        if word in {"COPY", "ADD"}:
            copied.append(rest.split()[-1])
        elif word == "RUN":
            for dest in copied:
                assert not re.search(rf"\brm\b[^&;|]*\s{re.escape(dest)}", rest), (
                    f"RUN removes {dest}, copied by an earlier layer that stays in the image"
                )
    users = [rest for word, rest in final if word == "USER"]
    assert users and users[-1] not in {"root", "0"}, "the image must not run as root"
    assert any(word == "HEALTHCHECK" and "/healthz" in rest for word, rest in final)
    assert ("STOPSIGNAL", "SIGTERM") in final


# -- the shutdown close code -----------------------------------------------------------------

SHUTDOWN_WORDS = re.compile(r"shut|stop|restart|sigterm|sigint|graceful|deploy", re.IGNORECASE)


def text_files() -> Iterator[Path]:
    yield ROOT / "README.md"
    yield DOCKERFILE
    yield COMPOSE
    yield from sorted((ROOT / "docs").rglob("*.md"))
    yield from sorted(p for p in (ROOT / "deploy").rglob("*") if p.is_file())
    for folder in ("server", "rooms", "static"):
        for suffix in ("*.py", "*.js", "*.html", "*.md"):
            yield from sorted((ROOT / folder).rglob(suffix))


def test_no_text_says_shutdown_closes_with_1001() -> None:
    assert int(CloseCode.SERVICE_RESTART) == 1012
    wrong = []
    for path in text_files():
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            if not re.search(r"\b1001\b", line):
                continue
            window = " ".join(lines[max(0, number - 1) : number + 2])
            if SHUTDOWN_WORDS.search(window):
                wrong.append(f"{path.relative_to(ROOT)}:{number + 1}: {line.strip()}")
    assert not wrong, "shutdown closes WebSockets with 1012, not 1001:\n" + "\n".join(wrong)


def test_protocol_documents_1012_for_shutdown() -> None:
    table = (ROOT / "docs" / "protocol.md").read_text()
    row = next((line for line in table.splitlines() if line.startswith("| 1012 |")), "")
    assert "shutting down" in row
