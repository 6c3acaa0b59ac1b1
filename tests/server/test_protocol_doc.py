"""docs/protocol.md stays true: every message type, event, error code, close code,
reserved name and HTTP endpoint the code knows is documented, each event's example has
the fields of its type in their order, and the doc's tables name nothing the code does not
know."""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path
from typing import Any

import pytest
import yaml
from starlette.routing import Route

from rooms import ErrorCode
from rooms.protocol import PROTOCOL_VERSION, RESERVED_TYPES, ClientType, ServerType
from rooms.room import Event, EventType
from rooms.room.events import optional_keys, type_of, wire_keys
from server import CloseCode, Settings, create_app
from server.api.responses import api_not_found

DOC_DIR = Path(__file__).resolve().parents[2] / "docs"
DOC = (DOC_DIR / "protocol.md").read_text()


def section(title: str) -> str:
    start = DOC.index(f"## {title}\n")
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end != -1 else len(DOC)]


@pytest.mark.parametrize(
    "name",
    sorted(
        {t.value for t in ClientType} | {t.value for t in ServerType} | {t.value for t in EventType}
    ),
)
def test_every_message_type_is_documented_with_an_example(name: str) -> None:
    assert f"`{name}`" in DOC, f"message type {name!r} is not in docs/protocol.md"
    assert f'"type": "{name}"' in DOC, f"docs/protocol.md has no JSON example of {name!r}"


def subsection(title: str) -> str:
    start = DOC.index(f"### {title}\n")
    end = DOC.find("\n### ", start + 1)
    return DOC[start : end if end != -1 else len(DOC)]


def event_examples() -> list[dict[str, Any]]:
    """The JSON examples of the "Events" section, one event a line."""
    lines = subsection("Events").splitlines()
    return [json.loads(line) for line in lines if line.startswith('{"type": ')]


EVENT_CLASSES = {type_of(kind): kind for kind in typing.get_args(Event)}


@pytest.mark.parametrize("kind", sorted(EventType))
def test_every_event_has_a_complete_example_with_its_types_fields_in_order(
    kind: EventType,
) -> None:
    """Each example of an event has exactly the fields of its class (rooms.room.events),
    in the order they are sent; an optional one (left out while None) may be absent."""
    examples = [example for example in event_examples() if example["type"] == kind]
    assert examples, f"the Events section has no example of {kind.value!r}"
    names = list(wire_keys(EVENT_CLASSES[kind]))
    optional = optional_keys(EVENT_CLASSES[kind])
    for example in examples:
        documented = list(example)
        assert documented == [name for name in names if name in example], (
            f"{kind.value}: the example's fields {documented} are not {names} in that order"
        )
        missing = set(names) - optional - set(example)
        assert not missing, f"{kind.value}: the example lacks {sorted(missing)}"


def test_the_examples_show_the_optional_fields_too() -> None:
    shown = {(example["type"], name) for example in event_examples() for name in example}
    for kind, cls in EVENT_CLASSES.items():
        for name in optional_keys(cls):
            assert (kind, name) in shown, f"no example shows {kind}.{name}"


@pytest.mark.parametrize("code", sorted(code.value for code in ErrorCode))
def test_every_error_code_is_in_the_table(code: str) -> None:
    assert f"| `{code}` |" in section("Error codes")


def test_the_error_table_names_only_real_codes() -> None:
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", section("Error codes"), re.M))
    assert documented == {code.value for code in ErrorCode}


@pytest.mark.parametrize("code", sorted(int(code) for code in CloseCode))
def test_every_close_code_is_in_the_table(code: int) -> None:
    table = section("Close codes")
    if code == CloseCode.POLICY:  # used only to refuse a handshake, which answers HTTP 403
        assert "HTTP 403" in table
    else:
        assert f"| {code} |" in table


def test_it_agrees_with_asyncapi_yaml() -> None:
    """docs/asyncapi.yaml (tests/server/test_asyncapi.py) names the same client messages,
    error codes and close codes as this document's tables."""
    spec = yaml.safe_load((DOC_DIR / "asyncapi.yaml").read_text())
    schemas = spec["components"]["schemas"]
    overview = section("Client → server messages").split("\n### ", 1)[0]  # its first table
    client_table = set(re.findall(r"^\| `([a-z_]+)` \|", overview, re.M))
    sent: set[str] = set()
    for option in schemas["ClientMessage"]["oneOf"]:
        kind = schemas[option["$ref"].rsplit("/", 1)[1]]["properties"]["type"]
        sent |= {kind["const"]} if "const" in kind else set(kind["enum"])
    assert sent == client_table
    errors = set(re.findall(r"^\| `([a-z_]+)` \|", section("Error codes"), re.M))
    assert set(schemas["ErrorCode"]["enum"]) == errors
    closes = {int(n) for n in re.findall(r"^\| (\d{4}) \|", section("Close codes"), re.M)}
    assert set(spec["components"]["x-close-codes"]) == closes


def test_reserved_names_and_the_version_are_documented() -> None:
    reserved = section("Versioning")
    for name in RESERVED_TYPES:
        assert f"`{name}`" in reserved
    assert f"protocol version **{PROTOCOL_VERSION}**" in DOC
    assert DOC.startswith(f"# Protocol, version {PROTOCOL_VERSION}\n")


def test_every_api_endpoint_is_documented(tmp_path: Path) -> None:
    """Each ``/api/`` route of the app, by method and path, has its ``METHOD path`` heading
    (no I/O: ``create_app`` only builds the app)."""
    app = create_app(Settings(static_dir=tmp_path))
    endpoints = {
        (method, route.path)
        for route in app.router.routes
        if isinstance(route, Route)
        and route.path.startswith("/api/")
        and route.endpoint is not api_not_found
        for method in (route.methods or set()) - {"HEAD"}
    }
    assert ("PATCH", "/api/players/{player_id}") in endpoints
    headings = "\n".join(
        line for line in section("HTTP endpoints").splitlines() if line.startswith("### ")
    )
    missing = sorted(
        f"{method} {path}" for method, path in endpoints if f"`{method} {path}`" not in headings
    )
    assert not missing, f"docs/protocol.md has no section for {missing}"
