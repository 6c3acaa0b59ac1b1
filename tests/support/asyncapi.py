"""docs/asyncapi.yaml read for tests: its schemas as ``jsonschema`` validators (Draft
2020-12, references resolved in the document), and each channel's frames per direction, for
what checks real traffic against it (tests/server/test_asyncapi.py, spec_relay.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match

__all__ = ["SCHEMAS", "SPEC", "Channel", "best", "channel_of", "validator"]

SPEC: dict[str, Any] = yaml.safe_load(
    (Path(__file__).resolve().parents[2] / "docs" / "asyncapi.yaml").read_text()
)
SCHEMAS: dict[str, Any] = SPEC["components"]["schemas"]


def validator(name: str) -> Draft202012Validator:
    """A validator of ``components.schemas.<name>``, its references resolved in the spec."""
    return Draft202012Validator(
        {"$ref": f"#/components/schemas/{name}", "components": SPEC["components"]}
    )


def best(errors: list[Any]) -> str:
    """The deepest reason of a failed oneOf: the branch whose schema matched the type."""
    return str(best_match(errors))[:600]


def _resolve(ref: str) -> Any:
    node: Any = SPEC
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


@dataclass(frozen=True)
class Channel:
    """A channel of the spec: its name, its address as a pattern, and a validator per
    operation action ("send": what a client sends, "receive": what it receives), which
    admits any of that operation's message payloads."""

    name: str
    address: re.Pattern[str]
    validators: dict[str, Draft202012Validator]


def _channels() -> list[Channel]:
    payloads: dict[tuple[str, str], list[Any]] = {}
    for operation in SPEC["operations"].values():
        name = operation["channel"]["$ref"].rsplit("/", 1)[1]
        for message in operation["messages"]:
            payload = _resolve(_resolve(message["$ref"])["$ref"])["payload"]
            payloads.setdefault((name, operation["action"]), []).append(payload)
    made = []
    for name, channel in SPEC["channels"].items():
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(channel["address"]))
        made.append(
            Channel(
                name,
                re.compile(pattern),
                {
                    action: Draft202012Validator(
                        {"anyOf": options, "components": SPEC["components"]}
                    )
                    for (owner, action), options in payloads.items()
                    if owner == name
                },
            )
        )
    # a literal address (/ws/bot) before a templated one it also matches (/ws/{room_id})
    return sorted(made, key=lambda channel: channel.address.pattern.count("[^/]+"))


CHANNELS = _channels()


def channel_of(path: str) -> Channel | None:
    """The channel whose address is ``path`` (its query aside), or None."""
    address = path.split("?", 1)[0]
    return next((c for c in CHANNELS if c.address.fullmatch(address)), None)
