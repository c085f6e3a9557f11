"""How a client authenticates at the token endpoint: none, client_secret_basic / _post, private_key_jwt.

The client is a ``PreRegisteredClient`` (its ``token_endpoint_auth_method`` says which of the first
three) or a ``PrivateKeyJWTClient`` (RFC 7523 §2.2: a fresh signed assertion on each request).
``authenticate`` adds what the method needs to a ``TokenRequest``:

- ``none``: ``client_id`` in the form (a public client);
- ``client_secret_basic``: ``Authorization: Basic`` with the id and secret form-urlencoded first
  (RFC 6749 §2.3.1), nothing of the client in the form (its ``client_id`` too when asked:
  ``client_id_in_form``);
- ``client_secret_post``: ``client_id`` and ``client_secret`` in the form;
- ``private_key_jwt``: ``client_id``, ``client_assertion_type`` and ``client_assertion`` in the form.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Callable
from urllib.parse import quote

from workbench.core.auth_steps import StepLog
from workbench.core.errors import ConfigError
from workbench.core.oauth.assertions import sign_client_assertion
from workbench.core.oauth.forms import CLIENT_ASSERTION_TYPE, TokenRequest
from workbench.core.oauth_grant_options import PrivateKeyJWTClient
from workbench.core.oauth_options import OAuthClient, PreRegisteredClient

__all__ = ["auth_method_of", "authenticate", "basic_credentials", "client_id_of", "secrets_of"]


def basic_credentials(client_id: str, client_secret: str) -> str:
    """``Authorization`` of ``client_secret_basic``: id and secret percent-encoded, then base64 (RFC 6749 §2.3.1)."""
    pair = f"{quote(client_id, safe='')}:{quote(client_secret, safe='')}"
    return "Basic " + base64.b64encode(pair.encode("utf-8")).decode("ascii")


def auth_method_of(client: OAuthClient) -> str:
    """The client's ``token_endpoint_auth_method`` (``private_key_jwt`` for a private key client).

    Raises:
        ConfigError: A client identity that does not authenticate at a token endpoint by itself
            (a dynamic client before its registration, a metadata document client).
    """
    if isinstance(client, PrivateKeyJWTClient):
        return "private_key_jwt"
    if isinstance(client, PreRegisteredClient):
        return client.auth_method
    raise ConfigError(
        f"A {type(client).__name__} has no client id of its own to authenticate with at a token endpoint.",
        hint="use PreRegisteredClient(id, secret) or PrivateKeyJWTClient(id, private_key_pem)",
        details={"oauth": "client-unsuitable"},
    )


def client_id_of(client: OAuthClient) -> str:
    """The client id of a pre-registered or private key client.

    Raises:
        ConfigError: Another kind of client (see ``auth_method_of``).
    """
    auth_method_of(client)
    assert isinstance(client, PreRegisteredClient | PrivateKeyJWTClient)
    return client.client_id


def secrets_of(client: OAuthClient) -> tuple[str, ...]:
    """The client's secrets (its secret, its private key), for the redactor: never in a log or the wire log."""
    if isinstance(client, PrivateKeyJWTClient):
        return (client.private_key_pem,)
    if isinstance(client, PreRegisteredClient) and client.client_secret:
        return (client.client_secret,)
    return ()


def authenticate(
    request: TokenRequest,
    client: OAuthClient,
    *,
    audience: str,
    steps: StepLog | None = None,
    clock: Callable[[], float] = time.time,
    on_secret: Callable[[str], None] | None = None,
    client_id_in_form: bool = False,
) -> TokenRequest:
    """``request`` with the client's authentication added (see the module docstring).

    Args:
        request: The grant's token request.
        client: Who the client is.
        audience: The audience of a ``private_key_jwt`` assertion: the authorization server's issuer
            (its token endpoint when no issuer is known).
        steps: Where a key that cannot sign is recorded as a failed token step.
        clock: Seconds since the epoch (the assertion's ``iat`` and ``exp``).
        on_secret: Told every assertion signed, so the wire log can mask it.
        client_id_in_form: Name the client in the form with ``client_secret_basic`` too (RFC 6749
            §2.3.1 allows it; the MCP SDK's token endpoint requires ``client_id`` in every form).

    Raises:
        ConfigError: The client cannot authenticate by itself (``auth_method_of``).
        OAuthRefusedError: A private key that cannot sign with its algorithm.
    """
    method = auth_method_of(client)
    if isinstance(client, PrivateKeyJWTClient):
        assertion = sign_client_assertion(client, audience, steps, clock=clock)
        if on_secret is not None:
            on_secret(assertion)
        return request.with_form(
            client_id=client.client_id, client_assertion_type=CLIENT_ASSERTION_TYPE, client_assertion=assertion
        )
    assert isinstance(client, PreRegisteredClient)
    if method == "client_secret_basic" and client.client_secret:
        return request.with_form(
            client_id=client.client_id if client_id_in_form else None, client_secret=None
        ).with_headers(Authorization=basic_credentials(client.client_id, client.client_secret))
    if method == "client_secret_post" and client.client_secret:
        return request.with_form(client_id=client.client_id, client_secret=client.client_secret)
    return request.with_form(client_id=client.client_id)
