"""``workbench profile …`` and ``workbench secret …``: saved profiles, and their secrets in the OS keyring.

Secret values are read from standard input (never from argv, where ``ps`` and shell history see them).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from pydantic import SecretStr, ValidationError

from workbench.cli.render import print_error
from workbench.cli.targets import add_target_options, target_from_args
from workbench.core.credentials import KeyringCredentialStore
from workbench.core.errors import ConfigError, WorkbenchError
from workbench.core.profile_secrets import clear_profile_secrets, find_profile, parse_secret_spec, set_profile_secret
from workbench.core.profiles import (
    A2AProfile,
    ConnectionProfile,
    MCPHTTPProfile,
    MCPSSEProfile,
    MCPStdioProfile,
    validation_details,
)
from workbench.core.settings import ProfileStore

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def add_profile_commands(sub: Any) -> None:
    """Register ``profile`` and ``secret`` on the top-level subparsers."""
    profile = sub.add_parser("profile", help="saved connection profiles")
    psub = profile.add_subparsers(dest="profile_command", required=True)
    add = psub.add_parser("add", help="save a profile (the protocol is explicit)")
    add.add_argument("name", metavar="NAME")
    add_target_options(add, with_profile=False)
    add.add_argument("--mode", choices=("auto", "legacy", "2026-07-28"), default="auto", help="MCP protocol era")
    add.add_argument("--connect-timeout", type=float, default=None, metavar="S")
    add.add_argument("--timeout", type=float, default=None, metavar="S")
    listing = psub.add_parser("list", help="list saved profiles")
    listing.add_argument("--json", action="store_true")
    remove = psub.add_parser("remove", help="delete a profile and forget its secrets")
    remove.add_argument("name", metavar="NAME")

    secret = sub.add_parser("secret", help="secrets of a profile, kept in the OS keyring")
    ssub = secret.add_subparsers(dest="secret_command", required=True)
    sset = ssub.add_parser("set", help="store a secret (value read from standard input)")
    sset.add_argument("name", metavar="NAME")
    sset.add_argument("kind", metavar="KIND", help="bearer | api-key[:HEADER] | header:NAME | env:NAME")
    sclear = ssub.add_parser("clear", help="forget a profile's secrets (all, or one kind)")
    sclear.add_argument("name", metavar="NAME")
    sclear.add_argument("kind", metavar="KIND", nargs="?")


def run_profile_command(args: argparse.Namespace, stdio_command: list[str]) -> int:
    """Run ``profile …`` or ``secret …``; returns the exit code."""
    try:
        if args.command == "profile":
            return asyncio.run(_profile(args, stdio_command))
        return asyncio.run(_secret(args))
    except WorkbenchError as exc:
        print_error(exc, as_json=bool(getattr(args, "json", False)))
        return EXIT_USAGE if isinstance(exc, ConfigError) else EXIT_FAILED


async def _profile(args: argparse.Namespace, stdio_command: list[str]) -> int:
    profiles = ProfileStore()
    if args.profile_command == "list":
        saved = profiles.load()
        if args.json:
            for p in saved:
                print(json.dumps(p.model_dump(mode="json")))
        else:
            for p in saved:
                key = (
                    " [secrets: " + ", ".join(r.kind.value + (":" + r.name if r.name else "") for r in p.secrets) + "]"
                )
                print(f"{p.name:<24} {p.kind:<10} {_target(p)}{key if p.secrets else ''}  (id {p.id})")
        return EXIT_OK
    if args.profile_command == "remove":
        profile = find_profile(profiles, args.name)
        if profile.secrets:
            await clear_profile_secrets(KeyringCredentialStore(), profiles, profile)
        profiles.delete(profile.id)
        print(f"removed {profile.name}", file=sys.stderr)
        return EXIT_OK
    new = _new_profile(args, stdio_command)
    if any(p.name == new.name for p in profiles.load()):
        raise ConfigError(f"A profile called {new.name!r} exists already.", hint="remove it first or pick another name")
    profiles.upsert(new)
    print(f"saved {new.name} (id {new.id})", file=sys.stderr)
    return EXIT_OK


def _target(profile: ConnectionProfile) -> str:
    if isinstance(profile, MCPStdioProfile):
        return " ".join([profile.command, *profile.args])
    return profile.url


def _new_profile(args: argparse.Namespace, stdio_command: list[str]) -> ConnectionProfile:
    args.agent_tool = getattr(args, "agent_tool", None)
    spec = target_from_args(args, stdio_command)
    fields: dict[str, Any] = {"name": args.name}
    if args.connect_timeout is not None:
        fields["connect_timeout"] = args.connect_timeout
    if args.timeout is not None:
        fields["request_timeout"] = args.timeout
    try:
        if spec.protocol == "mcp-stdio":
            return MCPStdioProfile(
                command=spec.command[0], args=spec.command[1:], env=spec.env, mode=spec.mode, **fields
            )
        mcp_fields = {"mode": spec.mode, "agent_tool": spec.agent_tool}
        if spec.protocol == "mcp-http":
            return MCPHTTPProfile(url=spec.url, headers=spec.headers, **mcp_fields, **fields)
        if spec.protocol == "mcp-sse":
            return MCPSSEProfile(url=spec.url, headers=spec.headers, **mcp_fields, **fields)
        return A2AProfile(url=spec.url, headers=spec.headers, **fields)
    except ValidationError as exc:
        errors = validation_details(exc)
        first = errors[0]
        hint = None
        if first["type"] == "plaintext_secret":
            hint = "save the profile without it, then: workbench secret set NAME bearer|api-key|header:K|env:K"
        raise ConfigError(
            f"Invalid profile: {'.'.join(first['loc'])}: {first['msg']}", hint=hint, details={"errors": errors}
        ) from None


async def _secret(args: argparse.Namespace) -> int:
    profiles = ProfileStore()
    store = KeyringCredentialStore()
    profile = find_profile(profiles, args.name)
    if args.secret_command == "clear":
        kind, name = parse_secret_spec(args.kind) if args.kind else (None, "")
        _, count = await clear_profile_secrets(store, profiles, profile, kind, name)
        print(f"forgot {count} secret(s) of {profile.name}", file=sys.stderr)
        return EXIT_OK
    kind, name = parse_secret_spec(args.kind)
    store.backend()  # refuse before asking for the value
    if sys.stdin.isatty():
        import getpass

        value = getpass.getpass(f"{kind.value} for {profile.name}: ")
    else:
        value = sys.stdin.read().rstrip("\r\n")
    if not value:
        raise ConfigError("No secret value was given on standard input.")
    await set_profile_secret(store, profiles, profile, kind, name, SecretStr(value))
    backend = store.backend()
    print(f"stored {args.kind} for {profile.name} in {backend.name}", file=sys.stderr)
    if backend.warning:
        print(f"warning: {backend.warning}", file=sys.stderr)
    return EXIT_OK
