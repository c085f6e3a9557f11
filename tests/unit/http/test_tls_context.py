"""Every HTTP transport of the process verifies servers with one shared TLS context (``core/http/tls.py``)."""

from __future__ import annotations

import ssl

from workbench.core.http.httpx2_transport import Httpx2CredentialGuard, Httpx2TapTransport
from workbench.core.http.httpx_transport import HttpxCredentialGuard, HttpxTapTransport
from workbench.core.http.origins import CredentialBoundary
from workbench.core.http.tls import verifying_context
from workbench.core.protocols.a2a.wire_tap import A2ATransport


def test_the_shared_context_verifies_certificates_and_host_names_and_is_built_once() -> None:
    context = verifying_context()
    assert context is verifying_context()
    assert context.verify_mode is ssl.CERT_REQUIRED and context.check_hostname


def test_transports_built_without_an_inner_one_use_the_shared_context() -> None:
    boundary = CredentialBoundary([], [])
    transports = [
        HttpxTapTransport(None),
        HttpxCredentialGuard(boundary),
        Httpx2TapTransport(None),
        Httpx2CredentialGuard(boundary),
        A2ATransport(),
    ]
    for transport in transports:
        pool = transport._inner._pool  # type: ignore[attr-defined]  # httpcore's pool holds the context it uses
        assert pool._ssl_context is verifying_context(), type(transport).__name__
