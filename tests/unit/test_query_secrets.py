"""API keys sent as URL query parameters: where they are allowed, how they reach the URL, how labels hide them."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from workbench.core.profiles import A2AProfile, MCPHTTPProfile, MCPSSEProfile, SecretKind, SecretRef
from workbench.core.profiles.secret_values import request_headers, resolve_secrets, with_query
from workbench.core.wire.redaction import mask_query_values

REF = SecretRef(kind=SecretKind.QUERY, name="api_key", key="p/query:api_key")


@pytest.mark.parametrize("cls", [MCPHTTPProfile, MCPSSEProfile])
def test_mcp_http_profiles_accept_a_query_secret(cls):
    profile = cls(name="p", url="http://127.0.0.1:1/mcp", secrets=[REF])
    assert profile.secrets[0].target == "?api_key"


def test_a2a_profiles_accept_query_and_cookie_secrets():
    cookie = SecretRef(kind=SecretKind.COOKIE, name="wb_session", key="p/cookie:wb_session")
    profile = A2AProfile(name="p", url="http://127.0.0.1:1", secrets=[REF, cookie])
    assert [r.target for r in profile.secrets] == ["?api_key", "Cookie:wb_session"]


def test_a_cookie_secret_needs_a_cookie_name():
    for name in ("", "a b", "a;b"):
        with pytest.raises(ValidationError):
            SecretRef(kind=SecretKind.COOKIE, name=name, key="k")


@pytest.mark.asyncio
async def test_resolved_cookie_secrets_join_a_plain_cookie_header():
    cookie = SecretRef(kind=SecretKind.COOKIE, name="wb_session", key="p/cookie:wb_session")
    profile = A2AProfile(name="p", url="http://127.0.0.1:1", secrets=[cookie])

    async def lookup(ref: SecretRef) -> str:
        return "c00kie-value"

    secrets = await resolve_secrets(profile, lookup)
    assert "c00kie-value" in secrets.values()
    assert "c00kie-value" not in repr(secrets)
    # a plain Cookie header (an ad-hoc --header) keeps its cookies
    assert request_headers({"cookie": "theme=dark"}, secrets) == {"Cookie": "theme=dark; wb_session=c00kie-value"}


def test_a_query_secret_needs_a_parameter_name():
    with pytest.raises(ValidationError):
        SecretRef(kind=SecretKind.QUERY, key="k")


@pytest.mark.asyncio
async def test_resolved_query_secrets_are_added_to_the_url_keeping_its_other_parameters():
    profile = MCPHTTPProfile(name="p", url="http://127.0.0.1:1/mcp?x=1", secrets=[REF])

    async def lookup(ref: SecretRef) -> str:
        return "k3y"

    secrets = await resolve_secrets(profile, lookup)
    assert secrets.query == {"api_key": "k3y"}
    assert "k3y" in secrets.values()
    assert with_query(profile.url, secrets.query) == "http://127.0.0.1:1/mcp?x=1&api_key=k3y"
    assert with_query("http://h/mcp?api_key=old", secrets.query) == "http://h/mcp?api_key=k3y"
    assert "k3y" not in repr(secrets)


def test_labels_mask_every_query_value():
    assert mask_query_values("http://h/mcp?api_key=k3y&x=1") == "http://h/mcp?api_key=***&x=***"
    assert mask_query_values("http://h/mcp") == "http://h/mcp"
