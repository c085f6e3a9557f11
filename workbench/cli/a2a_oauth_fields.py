"""``profile add/edit --a2a``'s OAuth client options turned into an A2A profile's fields, a key file checked now.

An A2A agent's card names its OAuth schemes' flows and endpoints; the profile names only the client for
them (``--oauth-client-id`` with ``--oauth-token-auth``, or with ``--oauth-client-key-file``) and DPoP
(``--oauth-dpop``). The options that choose an MCP login (``--oauth``, ``--oauth-scope``, the grants,
CIMD, dynamic registration, the redirect port) are refused for A2A profiles, as a ``ConfigError``.
"""

from __future__ import annotations

from typing import Any

from workbench.cli.options import OAuthClientOptions
from workbench.core.errors import ConfigError
from workbench.core.profiles import A2AProfile
from workbench.core.profiles.oauth_files import check_client_key_file


def _mcp_only(client: OAuthClientOptions) -> list[str]:
    """The MCP-only options given."""
    given = (
        ("--oauth-client-metadata-url", bool(client.metadata_url)),
        ("--oauth-dynamic-client", client.dynamic),
        ("--oauth-redirect-port", client.redirect_port is not None),
        ("--oauth-grant", bool(client.grant)),
        ("--oauth-assertion-file", bool(client.assertion_file)),
        ("--oauth-idp-token-endpoint", bool(client.idp_token_endpoint)),
        ("--oauth-idp-client-id", bool(client.idp_client_id)),
        ("--oauth-id-token-file", bool(client.id_token_file)),
    )
    return [name for name, on in given if on]


def refuse_mcp_login(oauth: bool, scopes: bool) -> None:
    """Refuse ``--oauth`` and ``--oauth-scope`` for an A2A profile.

    Raises:
        ConfigError: One of them was given.
    """
    if oauth or scopes:
        raise ConfigError(
            "--oauth and --oauth-scope are for MCP servers over HTTP; an A2A agent's card names its OAuth schemes "
            "and their scopes.",
            hint="name the client for them: --oauth-client-id ID (--oauth-token-auth, --oauth-client-key-file), "
            "--oauth-dpop; then: workbench login NAME",
        )


def a2a_oauth_fields(client: OAuthClientOptions, current: A2AProfile | None = None) -> dict[str, Any]:
    """The A2A profile fields the ``--oauth-client-*``, ``--oauth-token-auth`` and ``--oauth-dpop`` options set.

    A key file makes the client ``private-key-jwt``; a client id alone keeps a ``private-key-jwt``
    profile's key unless a token auth method or a secret is given, and otherwise makes the client
    ``pre-registered``.

    Args:
        client: The options given.
        current: The profile being edited (``None``: a new one).

    Raises:
        ConfigError: An MCP-only option, or a key file that holds no usable key (nothing is saved).
    """
    refused = _mcp_only(client)
    if refused:
        raise ConfigError(
            f"{refused[0]} is for MCP servers over HTTP; an A2A agent's card names its OAuth flows.",
            hint="an A2A profile takes --oauth-client-id, --oauth-token-auth, --oauth-client-key-file, "
            "--oauth-client-key-algorithm and --oauth-dpop",
        )
    key_client = current is not None and current.oauth_client == "private-key-jwt"
    key_client = key_client and not (client.secret_from or client.token_auth)
    fields: dict[str, Any] = {}
    if client.key_file or (client.client_id and key_client):
        fields["oauth_client"] = "private-key-jwt"
        if client.client_id:
            fields["oauth_client_id"] = client.client_id
        if client.key_file:
            checked = check_client_key_file(client.key_file, client.key_algorithm)
            fields.update(oauth_client_key_file=checked.path, oauth_client_key_algorithm=checked.algorithm)
    elif client.client_id or client.token_auth or client.secret_from:
        fields.update(oauth_client="pre-registered", oauth_client_key_file=None)
        if client.client_id:
            fields["oauth_client_id"] = client.client_id
    if client.key_algorithm:
        fields["oauth_client_key_algorithm"] = client.key_algorithm
    if client.token_auth:
        fields["oauth_token_auth"] = client.token_auth
    if client.dpop is not None:
        fields["oauth_dpop"] = client.dpop
    return fields
