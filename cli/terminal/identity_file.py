"""``play --connect``'s guest identities: one per server, kept in a file only its owner reads.

The file is ``$XDG_CONFIG_HOME/tictactoe/identity.json`` (``~/.config/...`` without the
variable), mode 0600 in a 0700 directory, since whoever reads a secret is that player. It maps
each server origin (``http://host:port``) to ``{"player_id", "secret", "name"}``. The first
player join to a server makes an identity there (``POST /api/players``) and writes it; later
runs send the same one. A file that cannot be read or parsed stops the game with a sentence
that names it and the ways out, and is never overwritten.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from client import post_json

__all__ = [
    "Identity",
    "IdentityError",
    "IdentityFile",
    "default_path",
    "identity_for",
    "unknown_identity",
]

_VERSION = 1


class IdentityError(Exception):
    """The identity file cannot be used; ``str(err)`` says which file, why, and what to do."""


@dataclass(frozen=True, slots=True)
class Identity:
    player_id: str
    secret: str
    name: str

    def credentials(self) -> dict[str, str]:
        """The ``player`` of a join (docs/protocol.md)."""
        return {"id": self.player_id, "secret": self.secret}

    def __repr__(self) -> str:  # never print a secret
        return f"Identity(player_id={self.player_id!r}, name={self.name!r})"


def default_path(env: dict[str, str] | None = None) -> Path:
    """Where identities are kept: the XDG config directory's ``tictactoe/identity.json``."""
    env = dict(os.environ) if env is None else env
    base = env.get("XDG_CONFIG_HOME") or ""
    root = Path(base) if os.path.isabs(base) else Path.home() / ".config"  # XDG: absolute only
    return root / "tictactoe" / "identity.json"


def _origin(base: str) -> str:
    return base.rstrip("/").lower()


class IdentityFile:
    def __init__(self, path: Path) -> None:
        self.path = path

    def _refuse(self, why: str) -> IdentityError:
        return IdentityError(
            f"cannot use your identity file {self.path}: {why}. Fix or move it away (a new one "
            "is made on the next game), or play without an identity with --guest"
        )

    def load(self) -> dict[str, Identity]:
        """Every server's identity; none when there is no file yet. IdentityError when the
        file cannot be read or is not one this program wrote."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except (OSError, UnicodeDecodeError) as exc:
            raise self._refuse(f"cannot read it ({exc.__class__.__name__}: {exc})") from None
        try:
            data: Any = json.loads(text)
            servers = data["servers"]
            return {
                _origin(origin): Identity(
                    str(entry["player_id"]), str(entry["secret"]), str(entry["name"])
                )
                for origin, entry in servers.items()
            }
        except (ValueError, TypeError, KeyError, AttributeError):
            raise self._refuse("it is not an identity file (damaged or edited?)") from None

    def get(self, origin: str) -> Identity | None:
        return self.load().get(_origin(origin))

    def save(self, origin: str, identity: Identity) -> None:
        """Keep ``identity`` for ``origin`` beside the others: written whole to a new file
        (0600) that replaces the old one, so a crash leaves one or the other, never half."""
        identities = self.load()
        identities[_origin(origin)] = identity
        data = {
            "version": _VERSION,
            "servers": {
                origin: {"player_id": i.player_id, "secret": i.secret, "name": i.name}
                for origin, i in sorted(identities.items())
            },
        }
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            # mkstemp creates the file 0600, before any secret is in it
            handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".identity-")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as out:
                    json.dump(data, out, indent=2)
                    out.write("\n")
                os.replace(temporary, self.path)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise
        except OSError as exc:
            raise self._refuse(f"cannot write it ({exc.__class__.__name__}: {exc})") from None


def identity_for(
    http_base: str, file: IdentityFile, *, name: str | None = None, notify: Any = print
) -> Identity:
    """The identity kept for the server at ``http_base``, made there first when there is none
    (named ``name``, or a guest name the server picks). IdentityError for the file; Refused
    or Disconnected (the client library's) when the server refuses or cannot be reached."""
    kept = file.get(http_base)
    if kept is not None:
        return kept
    made = post_json(http_base, "/api/players", {"name": name} if name else {})
    identity = Identity(str(made["player_id"]), str(made["secret"]), str(made["name"]))
    file.save(http_base, identity)
    notify(
        f"Made your player identity on {http_base}: {identity.name} ({identity.player_id}), "
        f"kept in {file.path}. Keep that file: losing it loses the identity."
    )
    return identity


def unknown_identity(http_base: str, file: IdentityFile, *, guest: bool = True) -> IdentityError:
    """What to say when the server answers ``bad_identity`` to the identity kept for it;
    ``guest``: whether playing without an identity (--guest) is a way out here."""
    way_out = ", or play with --guest" if guest else ""
    return IdentityError(
        f"{http_base} does not know the identity kept for it in {file.path} (it expired after "
        "400 days unused, or the server lost its data). Remove that server's entry from the "
        f"file to get a new one{way_out}"
    )
