"""OAuth endpoints a client may talk to: ``https``, or plain ``http`` only on this machine.

OAuth 2.1 §1.5 and RFC 8252 §8.3 allow plain ``http`` for loopback hosts alone: anywhere else an
authorization code, a PKCE verifier, a client secret or a refresh token would cross the network in
clear text. Both protocols' OAuth flows (MCP's through the SDK's provider, A2A's own) check every
endpoint they learn from metadata with ``check_oauth_endpoint`` before anything is sent to it.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from workbench.core.errors import AuthRequiredError
from workbench.core.http.origins import is_loopback_host
from workbench.core.safe_text import neutralise_line


class InsecureEndpointError(AuthRequiredError):
    """An OAuth endpoint is not ``https`` (and not plain ``http`` on this machine); nothing was sent to it.

    ``details``: ``url`` (the endpoint), ``endpoint`` (which one: ``token_endpoint`` …).
    """

    code = "insecure-endpoint"


def is_secure_endpoint(url: str) -> bool:
    """Whether ``url`` is an absolute ``https`` URL, or plain ``http`` to a loopback host."""
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname or ""
    except ValueError:
        return False
    if not host:
        return False
    return parts.scheme == "https" or (parts.scheme == "http" and is_loopback_host(host))


def check_oauth_endpoint(url: str, *, endpoint: str, context: str = "", details: dict[str, str] | None = None) -> None:
    """Refuse an OAuth endpoint that is not ``https`` (loopback hosts excepted).

    Args:
        url: The endpoint's URL.
        endpoint: Which endpoint it is, as its metadata names it (``token_endpoint`` …).
        context: Words naming whose endpoint it is, for the message (``security scheme 'oauth'``).
        details: More details for the error.

    Raises:
        InsecureEndpointError: ``url`` is plain ``http`` off this machine, another scheme, or not absolute.
    """
    if is_secure_endpoint(url):
        return
    what = endpoint.replace("_", " ")
    whose = f" of {context}" if context else ""
    raise InsecureEndpointError(
        f"The {what}{whose} is {neutralise_line(url)!r}: OAuth endpoints must be https "
        "(plain http only on this machine); nothing was sent to it.",
        hint="ask the server's operator to publish https endpoints",
        details={**(details or {}), "endpoint": endpoint, "url": url},
    )
