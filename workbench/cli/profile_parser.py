"""The ``profile``, ``secret``, ``login`` and ``logout`` command lines (argparse only: nothing heavy is imported).

``workbench.cli.profile_commands`` runs them; it is imported only when one of them is used, so that
``inspect``, ``call`` and ``send`` start without loading profiles, the keyring or pydantic models.
"""

from __future__ import annotations

import argparse
from typing import Any

from workbench.cli.targets import add_target_options


def add_profile_commands(sub: Any) -> None:
    """Register ``profile`` and ``secret`` on the top-level subparsers."""
    profile = sub.add_parser("profile", help="saved connection profiles")
    psub = profile.add_subparsers(dest="profile_command", required=True)
    add = psub.add_parser("add", help="save a profile (the protocol is explicit)")
    add.add_argument("name", metavar="NAME")
    add_target_options(add, with_profile=False)
    add.add_argument("--mode", choices=("auto", "legacy", "2026-07-28"), default=None, help="MCP protocol era (auto)")
    add.add_argument("--connect-timeout", type=float, default=None, metavar="S")
    add.add_argument("--timeout", type=float, default=None, metavar="S")
    add.add_argument("--oauth", action="store_true", help="MCP over HTTP: log in with OAuth 2.1 (workbench login NAME)")
    add.add_argument("--oauth-scope", action="append", default=[], metavar="SCOPE", help="with --oauth: extra scope")
    edit = psub.add_parser("edit", help="change a saved profile (only the options given)")
    edit.add_argument("name", metavar="NAME")
    edit.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="also send the profile's credentials to ORIGIN (https://host:port), kept with the profile (repeatable)",
    )
    edit.add_argument(
        "--forget-origin", action="append", default=[], metavar="ORIGIN", help="no longer allow ORIGIN (repeatable)"
    )
    edit.add_argument("--mode", choices=("auto", "legacy", "2026-07-28"), default=None, help="MCP protocol era")
    edit.add_argument("--agent-tool", metavar="TOOL", help="MCP: the tool that serves as the agent entry point")
    edit.add_argument("--connect-timeout", type=float, default=None, metavar="S")
    edit.add_argument("--timeout", type=float, default=None, metavar="S")
    edit.add_argument("--max-message-bytes", metavar="SIZE", help="HTTP: most bytes of one response body or event")
    edit.add_argument("--max-stream-bytes", metavar="SIZE", help="HTTP: most bytes of one event stream")
    add_config_dir_option(edit)
    listing = psub.add_parser("list", help="list saved profiles")
    listing.add_argument("--json", action="store_true")
    remove = psub.add_parser("remove", help="delete a profile and forget its secrets")
    remove.add_argument("name", metavar="NAME")

    secret = sub.add_parser("secret", help="secrets of a profile, kept in the OS keyring")
    ssub = secret.add_subparsers(dest="secret_command", required=True)
    sset = ssub.add_parser("set", help="store a secret (value read from standard input)")
    sset.add_argument("name", metavar="NAME")
    sset.add_argument(
        "kind",
        metavar="KIND",
        help="bearer | api-key[:HEADER] | header:NAME | env:NAME | query:PARAM | cookie:NAME",
    )
    sclear = ssub.add_parser("clear", help="forget a profile's secrets (all, or one kind)")
    sclear.add_argument("name", metavar="NAME")
    sclear.add_argument("kind", metavar="KIND", nargs="?")

    for leaf in (add, listing, remove, sset, sclear):
        add_config_dir_option(leaf)
    # main() hands only 'profile' and 'secret' to run_profile_command; these defaults send login and
    # logout there too (argparse copies a subcommand's defaults over the namespace).
    login = sub.add_parser("login", help="log in to the OAuth-protected MCP server of a saved profile")
    login.add_argument("name", metavar="NAME")
    login.add_argument("--no-browser", action="store_true", help="only print the authorization URL; open it yourself")
    login.add_argument("--timeout", type=float, default=300.0, metavar="S", help="seconds to finish the login (300)")
    login.add_argument("--json", action="store_true", help="one JSON object per auth step, then the result")
    login.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="for this login, also send the profile's credentials to ORIGIN (saved ones: profile edit)",
    )
    login.set_defaults(command="profile", oauth_command="login")
    logout = sub.add_parser("logout", help="revoke and forget the OAuth tokens of a saved profile")
    logout.add_argument("name", metavar="NAME")
    logout.add_argument("--json", action="store_true", help="one JSON object per auth step, then the result")
    logout.set_defaults(command="profile", oauth_command="logout")
    for leaf in (login, logout):
        add_config_dir_option(leaf)


def add_config_dir_option(parser: argparse.ArgumentParser) -> None:
    """``--config-dir DIR`` after a subcommand too (``workbench --config-dir DIR …`` works as well).

    Its default is no attribute at all, so that a value given before the subcommand is kept.
    """
    parser.add_argument(
        "--config-dir", metavar="DIR", default=argparse.SUPPRESS, help="where profiles and window settings live"
    )
