"""The grammar of ``profile``, ``secret``, ``login`` and ``logout``, and of a profile's OAuth client options.

Grammar only: ``workbench.cli.parser`` reads the namespace into typed options.
"""

from __future__ import annotations

import argparse
from typing import Any

from workbench.cli.client_options import add_client_options
from workbench.cli.oauth_grant_parser import (
    OAUTH_GRANT_HELP,
    OAUTH_GRANTS,
    OAUTH_SECRET_KINDS,
    add_oauth_grant_options,
    add_secret_file_options,
)
from workbench.cli.options import MCP_MODES
from workbench.cli.target_parser import add_config_dir_option, add_target_options
from workbench.cli.tool_approval_cli import add_tool_approval_option
from workbench.core.oauth_names import SIGNING_ALGORITHMS, TOKEN_ENDPOINT_AUTH_METHODS
from workbench.core.timeouts import DEFAULT_LOGIN_TIMEOUT

__all__ = ["add_oauth_client_options", "add_profile_commands"]


def add_oauth_client_options(parser: argparse.ArgumentParser) -> None:
    """``profile add/edit``'s OAuth client (dynamic, pre-registered, CIMD, private key JWT), grant and DPoP."""
    parser.add_argument(
        "--oauth-client-id",
        metavar="ID",
        help="with --oauth, or for an --a2a agent card's OAuth schemes: a client registered out of band",
    )
    secret = parser.add_mutually_exclusive_group()
    secret.add_argument(
        "--oauth-client-secret-from-stdin",
        dest="oauth_client_secret_from",
        action="store_const",
        const="stdin",
        help="read the pre-registered client's secret from standard input (kept in the OS keyring)",
    )
    secret.add_argument(
        "--oauth-client-secret-ask",
        dest="oauth_client_secret_from",
        action="store_const",
        const="ask",
        help="ask for the pre-registered client's secret at a hidden prompt (kept in the OS keyring)",
    )
    parser.add_argument(
        "--oauth-token-auth",
        choices=TOKEN_ENDPOINT_AUTH_METHODS,
        default=None,
        metavar="METHOD",
        help="the pre-registered client's token endpoint auth: client_secret_basic (default), client_secret_post, none",
    )
    parser.add_argument(
        "--oauth-client-metadata-url",
        metavar="URL",
        help="with --oauth: the client's metadata document (CIMD); its https URL is the client id",
    )
    parser.add_argument(
        "--oauth-dynamic-client", action="store_true", help="with --oauth: register dynamically (the default)"
    )
    parser.add_argument(
        "--oauth-redirect-port",
        type=int,
        default=None,
        metavar="PORT",
        help="with --oauth: the loopback redirect port (http://127.0.0.1:PORT/callback) the client is registered with",
    )
    parser.add_argument(
        "--oauth-grant",
        choices=OAUTH_GRANTS,
        default=None,
        help=OAUTH_GRANT_HELP,
    )
    add_oauth_grant_options(parser)
    parser.add_argument(
        "--oauth-client-key-file",
        metavar="PEM",
        help="with --oauth-client-id: a private_key_jwt client's PEM private key file (the profile keeps its path)",
    )
    parser.add_argument(
        "--oauth-client-key-algorithm",
        choices=SIGNING_ALGORITHMS,
        default=None,
        metavar="ALG",
        help="the client key's signature algorithm: RS256, ES256, … (default: the key's usual one)",
    )
    parser.add_argument(
        "--oauth-dpop",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="with --oauth or --a2a: DPoP-bound tokens, proofs signed with the profile's own key (kept in the OS "
        "keyring)",
    )


def add_profile_commands(sub: Any) -> None:
    """Register ``profile``, ``secret``, ``login`` and ``logout`` on the top-level subparsers."""
    profile = sub.add_parser("profile", help="saved connection profiles")
    psub = profile.add_subparsers(dest="profile_command", required=True)
    add = psub.add_parser("add", help="save a profile (the protocol is explicit)")
    add.add_argument("name", metavar="NAME")
    add_target_options(add, with_profile=False)
    add.add_argument("--mode", choices=MCP_MODES, default=None, help="MCP protocol era (auto)")
    add.add_argument("--connect-timeout", type=float, default=None, metavar="S")
    add.add_argument("--timeout", type=float, default=None, metavar="S")
    add.add_argument("--oauth", action="store_true", help="MCP over HTTP: log in with OAuth 2.1 (workbench login NAME)")
    add.add_argument("--oauth-scope", action="append", default=[], metavar="SCOPE", help="with --oauth: extra scope")
    add_oauth_client_options(add)
    add_tool_approval_option(add)
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
    edit.add_argument("--mode", choices=MCP_MODES, default=None, help="MCP protocol era")
    edit.add_argument("--agent-tool", metavar="TOOL", help="MCP: the tool that serves as the agent entry point")
    edit.add_argument("--connect-timeout", type=float, default=None, metavar="S")
    edit.add_argument("--timeout", type=float, default=None, metavar="S")
    edit.add_argument("--max-message-bytes", metavar="SIZE", help="HTTP: most bytes of one response body or event")
    edit.add_argument("--max-stream-bytes", metavar="SIZE", help="HTTP: most bytes of one event stream")
    edit.add_argument("--oauth", action="store_true", help="MCP over HTTP: log in with OAuth 2.1 from now on")
    add_client_options(edit, editing=True)
    add_oauth_client_options(edit)
    add_tool_approval_option(edit)
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
        help="bearer | api-key[:HEADER] | header:NAME | env:NAME | query:PARAM | cookie:NAME | "
        + " | ".join(OAUTH_SECRET_KINDS),
    )
    add_secret_file_options(sset)
    sclear = ssub.add_parser("clear", help="forget a profile's secrets (all, or one kind)")
    sclear.add_argument("name", metavar="NAME")
    sclear.add_argument("kind", metavar="KIND", nargs="?")

    for leaf in (add, listing, remove, sset, sclear):
        add_config_dir_option(leaf)
    login = sub.add_parser(
        "login", help="log in to a saved profile's OAuth-protected MCP server, or its A2A agent card's OAuth schemes"
    )
    login.add_argument("name", metavar="NAME")
    login.add_argument("--no-browser", action="store_true", help="only print the authorization URL; open it yourself")
    login.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_LOGIN_TIMEOUT,
        metavar="S",
        help=f"seconds to finish the login ({DEFAULT_LOGIN_TIMEOUT:g})",
    )
    login.add_argument("--json", action="store_true", help="one JSON object per auth step, then the result")
    login.add_argument(
        "--explain",
        action="store_true",
        help="show each step as it happens: its requests and answers (tokens ***), what was checked, "
        "and on failure why and what to change",
    )
    login.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="for this login, also send the profile's credentials to ORIGIN (saved ones: profile edit)",
    )
    logout = sub.add_parser("logout", help="revoke and forget the OAuth tokens of a saved profile (A2A: forget)")
    logout.add_argument("name", metavar="NAME")
    logout.add_argument("--json", action="store_true", help="one JSON object per auth step, then the result")
    logout.add_argument(
        "--explain",
        action="store_true",
        help="show the revocation step: its requests and answers (tokens ***) and what was checked",
    )
    for leaf in (login, logout):
        add_config_dir_option(leaf)
