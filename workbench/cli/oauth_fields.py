"""``profile add/edit``'s OAuth options turned into profile fields, the files they name checked now; secret values read.

A key file, a workload JWT file and an ID token file are read when the profile is saved, so that a
path that cannot work is refused then (exit 2, nothing saved) rather than at login; the profile keeps
their absolute paths, never their content.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from workbench.cli.options import OAuthClientOptions
from workbench.core.errors import ConfigError
from workbench.core.profiles import ConnectionProfile
from workbench.core.profiles.oauth_files import absolute, check_client_key_file, check_token_file

_MACHINE_GRANTS = ("client_credentials", "jwt_bearer", "enterprise_managed")


def oauth_client_fields(client: OAuthClientOptions, current: ConnectionProfile | None = None) -> dict[str, Any]:
    """The profile fields ``--oauth-client-*``, ``--oauth-grant``, the grants' options and ``--oauth-dpop`` set.

    A key file makes the client ``private-key-jwt`` (its grant ``client_credentials`` unless it already
    has a grant without a browser, or another is given); a client id alone keeps a ``private-key-jwt``
    profile's key. A client that cannot use a grant without a browser (dynamic, CIMD) goes back to the
    browser sign-in unless a grant is given. A workload JWT file means ``jwt_bearer`` and the IdP
    options ``enterprise_managed`` unless another grant is given; a grant's settings are cleared when
    the profile changes to another grant.

    Args:
        client: The options given.
        current: The profile being edited (``None``: a new one).

    Raises:
        ConfigError: Options of two client identities at once, a key file that holds no usable key, or
            a token file that cannot be read or holds no JWT.
    """
    if sum(map(bool, (client.client_id or client.key_file, client.metadata_url, client.dynamic))) > 1:
        raise ConfigError(
            "Give one OAuth client: --oauth-client-id (with --oauth-client-key-file for a private key), "
            "--oauth-client-metadata-url or --oauth-dynamic-client."
        )
    key_client = getattr(current, "oauth_client", "") == "private-key-jwt" and not (
        client.secret_from or client.token_auth
    )
    current_grant = getattr(current, "oauth_grant", "authorization_code")
    fields: dict[str, Any] = {}
    if client.key_file or (client.client_id and key_client):
        fields["oauth_client"] = "private-key-jwt"
        if current_grant not in _MACHINE_GRANTS:
            fields["oauth_grant"] = "client_credentials"
        if client.client_id:
            fields["oauth_client_id"] = client.client_id
        if client.key_file:
            checked = check_client_key_file(client.key_file, client.key_algorithm)
            fields.update(oauth_client_key_file=checked.path, oauth_client_key_algorithm=checked.algorithm)
    elif client.client_id:
        fields.update(oauth_client="pre-registered", oauth_client_id=client.client_id, oauth_client_key_file=None)
    elif client.metadata_url:
        fields.update(oauth_client="metadata-document", oauth_client_metadata_url=client.metadata_url)
        fields["oauth_grant"] = "authorization_code"
    elif client.dynamic:
        fields.update(oauth_client="dynamic", oauth_grant="authorization_code")
    if client.key_algorithm:
        fields["oauth_client_key_algorithm"] = client.key_algorithm
    fields.update(_grant_fields(client))
    if client.token_auth:
        fields["oauth_token_auth"] = client.token_auth
    if client.redirect_port is not None:
        fields["oauth_redirect_port"] = client.redirect_port
    if client.dpop is not None:
        fields["oauth_dpop"] = client.dpop
    grant = fields.get("oauth_grant", current_grant)
    if grant != "jwt_bearer" and not client.assertion_file:  # one given with another grant: the model refuses it
        fields["oauth_assertion_file"] = None
    if grant != "enterprise_managed" and not (
        client.idp_token_endpoint or client.idp_client_id or client.id_token_file
    ):
        fields.update(oauth_idp_token_endpoint=None, oauth_idp_client_id=None, oauth_id_token_file=None)
    return fields


def _grant_fields(client: OAuthClientOptions) -> dict[str, Any]:
    """The grant and its settings: ``--oauth-grant``, else the grant the settings given imply."""
    fields: dict[str, Any] = {}
    if client.assertion_file:
        fields["oauth_grant"] = "jwt_bearer"
        fields["oauth_assertion_file"] = check_token_file(client.assertion_file, "oauth_assertion_file")
    if client.idp_token_endpoint or client.idp_client_id or client.id_token_file:
        fields["oauth_grant"] = "enterprise_managed"
    if client.idp_token_endpoint:
        fields["oauth_idp_token_endpoint"] = client.idp_token_endpoint
    if client.idp_client_id:
        fields["oauth_idp_client_id"] = client.idp_client_id
    if client.id_token_file:
        fields["oauth_id_token_file"] = check_token_file(client.id_token_file, "oauth_id_token_file")
    if client.grant:
        fields["oauth_grant"] = client.grant
    return fields


def read_secret_value(path: str | None, prompt: str) -> str:
    """A secret's value: the content of ``path``, else a hidden prompt on a terminal, else standard input.

    A file's or standard input's trailing line break is dropped (a PEM key keeps its other lines).

    Raises:
        ConfigError: The file cannot be read, or no value was given.
    """
    if path is not None:
        try:
            value = Path(absolute(path)).read_text(encoding="utf-8").rstrip("\r\n")
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"Cannot read {path!r}.", hint="check the path and that the file is readable") from exc
    elif sys.stdin.isatty():
        import getpass

        value = getpass.getpass(prompt)
    else:
        value = sys.stdin.read().rstrip("\r\n")
    if not value:
        raise ConfigError("No secret value was given.", hint="give --file FILE, or the value on standard input")
    return value
