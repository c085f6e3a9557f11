"""Connection profiles: the four kinds, JSON round trips, and refusing secrets in plain fields."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import ValidationError

from workbench.core.errors import ConfigError
from workbench.core.profiles import (
    PLAINTEXT_SECRET,
    A2AProfile,
    MCPHTTPProfile,
    MCPSSEProfile,
    MCPStdioProfile,
    Root,
    SecretKind,
    SecretRef,
    looks_like_secret_name,
    parse_profile,
)

SECRET_VALUE = "sk-live-0123456789abcdef"


def error_types(exc: ValidationError) -> list[str]:
    return [e["type"] for e in exc.errors()]


def full_profiles() -> list[Any]:
    return [
        MCPStdioProfile(
            name="demo stdio",
            command="python",
            args=["-m", "workbench.demo.mcp_server", "--stdio"],
            env={"LOG_LEVEL": "debug"},
            cwd="/tmp",
            mode="legacy",
            agent_tool="ask_agent",
            roots=[Root(uri="file:///home/me/project", name="project"), Root(uri="file:///tmp")],
            connect_timeout=12.5,
            request_timeout=None,
            secrets=[SecretRef(kind=SecretKind.ENV, name="GITHUB_TOKEN", key="gh-token")],
        ),
        MCPHTTPProfile(
            name="demo http",
            url="http://127.0.0.1:8000/mcp",
            headers={"X-Trace": "on"},
            mode="2026-07-28",
            secrets=[SecretRef(kind="bearer", key="http-token")],
        ),
        MCPSSEProfile(
            name="old server",
            url="https://example.test/sse",
            secrets=[SecretRef(kind="api-key", key="sse-key"), SecretRef(kind="header", name="X-Sig", key="sig")],
        ),
        A2AProfile(
            name="travel agent",
            url="https://agents.example.test/travel/",
            card_url="https://agents.example.test/travel/.well-known/agent-card.json",
            binding="HTTP+JSON",
            streaming=False,
            stream_idle_timeout=30,
            secrets=[SecretRef(kind="bearer", key="a2a-token")],
        ),
    ]


@pytest.mark.parametrize("profile", full_profiles(), ids=lambda p: p.kind)
def test_every_profile_kind_round_trips_through_json_unchanged(profile: Any) -> None:
    text = profile.model_dump_json()
    again = parse_profile(json.loads(text))
    assert type(again) is type(profile)
    assert again == profile
    assert json.loads(text)["kind"] == profile.kind


def test_parse_profile_picks_the_class_from_kind() -> None:
    assert isinstance(parse_profile({"kind": "mcp-stdio", "name": "s", "command": "srv"}), MCPStdioProfile)
    assert isinstance(parse_profile({"kind": "mcp-http", "name": "h", "url": "http://h/mcp"}), MCPHTTPProfile)
    assert isinstance(parse_profile({"kind": "mcp-sse", "name": "e", "url": "http://h/sse"}), MCPSSEProfile)
    assert isinstance(parse_profile({"kind": "a2a", "name": "a", "url": "http://h/"}), A2AProfile)


def test_an_unknown_kind_or_field_is_a_config_error() -> None:
    with pytest.raises(ConfigError) as unknown_kind:
        parse_profile({"kind": "websocket", "name": "w", "url": "ws://h"})
    assert unknown_kind.value.code == "config"
    with pytest.raises(ConfigError) as extra:
        parse_profile({"kind": "mcp-http", "name": "h", "url": "http://h/mcp", "token": SECRET_VALUE})
    assert [e["type"] for e in extra.value.details["errors"]] == ["extra_forbidden"]
    assert SECRET_VALUE not in json.dumps(extra.value.to_dict())


def test_profiles_get_distinct_valid_ids_and_keep_a_given_one() -> None:
    a, b = MCPStdioProfile(name="a", command="x"), MCPStdioProfile(name="b", command="x")
    assert a.id != b.id
    assert MCPStdioProfile(id="my-server.1", name="c", command="x").id == "my-server.1"
    with pytest.raises(ValidationError):
        MCPStdioProfile(id="no spaces/allowed", name="c", command="x")


def test_protocol_and_transport_are_derived_from_the_kind() -> None:
    stdio, http, sse, a2a = full_profiles()
    assert (stdio.protocol, stdio.transport) == ("mcp", "stdio")
    assert (http.protocol, http.transport) == ("mcp", "streamable-http")
    assert (sse.protocol, sse.transport) == ("mcp", "sse")
    assert a2a.protocol == "a2a"


def test_a2a_and_mcp_profiles_share_their_timeout_defaults() -> None:
    assert (
        A2AProfile(name="a", url="http://h/").request_timeout
        == MCPHTTPProfile(name="m", url="http://h/mcp").request_timeout
    )
    assert A2AProfile(name="a", url="http://h/").connect_timeout == 30.0
    assert MCPHTTPProfile(name="m", url="http://h/mcp").connect_timeout == 30.0
    with pytest.raises(ValidationError):
        MCPHTTPProfile(name="m", url="http://h/mcp", connect_timeout=0)


@pytest.mark.parametrize(
    "header",
    ["Authorization", "authorization", "Proxy-Authorization", "Cookie", "X-API-Key", "X-Auth-Token", "Api-Key"],
)
def test_a_plain_header_that_looks_like_a_credential_is_refused(header: str) -> None:
    with pytest.raises(ValidationError) as exc:
        MCPHTTPProfile(name="h", url="http://h/mcp", headers={header: SECRET_VALUE})
    assert error_types(exc.value) == [PLAINTEXT_SECRET]


def test_a_plain_header_whose_value_carries_an_auth_scheme_is_refused() -> None:
    with pytest.raises(ValidationError) as exc:
        A2AProfile(name="a", url="http://h/", headers={"X-Upstream": f"Bearer {SECRET_VALUE}"})
    assert error_types(exc.value) == [PLAINTEXT_SECRET]


def test_the_refusal_reaches_parse_profile_as_a_config_error_without_the_value() -> None:
    with pytest.raises(ConfigError) as exc:
        parse_profile(
            {"kind": "mcp-http", "name": "h", "url": "http://h/mcp", "headers": {"Authorization": SECRET_VALUE}}
        )
    assert [e["type"] for e in exc.value.details["errors"]] == [PLAINTEXT_SECRET]
    assert SECRET_VALUE not in json.dumps(exc.value.to_dict())
    assert SECRET_VALUE not in str(exc.value)


def test_ordinary_headers_are_accepted() -> None:
    profile = MCPHTTPProfile(name="h", url="http://h/mcp", headers={"X-Trace": "1", "Accept-Language": "de"})
    assert profile.headers == {"X-Trace": "1", "Accept-Language": "de"}


@pytest.mark.parametrize(
    "url",
    [
        f"http://user:{SECRET_VALUE}@h/mcp",
        f"http://h/mcp?api_key={SECRET_VALUE}",
        f"http://h/mcp?access_token={SECRET_VALUE}",
    ],
)
def test_a_url_carrying_a_password_or_token_is_refused(url: str) -> None:
    with pytest.raises(ValidationError) as exc:
        MCPHTTPProfile(name="h", url=url)
    assert error_types(exc.value) == [PLAINTEXT_SECRET]


def test_a_url_with_harmless_query_parameters_is_accepted() -> None:
    assert MCPSSEProfile(name="s", url="http://h/sse?tenant=a&page=2").url.endswith("page=2")


def test_a_non_http_url_is_refused() -> None:
    with pytest.raises(ValidationError) as exc:
        A2AProfile(name="a", url="ftp://h/")
    assert error_types(exc.value) == ["url_scheme"]


def test_a_secret_looking_environment_variable_is_refused_but_similar_names_are_not() -> None:
    with pytest.raises(ValidationError) as exc:
        MCPStdioProfile(name="s", command="srv", env={"OPENAI_API_KEY": SECRET_VALUE})
    assert error_types(exc.value) == [PLAINTEXT_SECRET]
    ok = MCPStdioProfile(name="s", command="srv", env={"TOKENIZERS_PARALLELISM": "false", "KEYBOARD": "us"})
    assert set(ok.env) == {"TOKENIZERS_PARALLELISM", "KEYBOARD"}


@pytest.mark.parametrize(
    ("name", "secret"),
    [
        ("GITHUB_PERSONAL_ACCESS_TOKEN", True),
        ("x-api-key", True),
        ("AWS_SECRET_ACCESS_KEY", True),
        ("DB_PASSWORD", True),
        ("Private-Key", True),
        ("TOKENIZERS_PARALLELISM", False),
        ("X-Request-Id", False),
        ("PATH", False),
    ],
)
def test_secret_name_detection_works_on_words(name: str, secret: bool) -> None:
    assert looks_like_secret_name(name) is secret


def test_a_secret_kind_that_does_not_fit_the_profile_is_refused() -> None:
    with pytest.raises(ValidationError):
        MCPStdioProfile(name="s", command="srv", secrets=[SecretRef(kind="bearer", key="k")])
    with pytest.raises(ValidationError):
        MCPHTTPProfile(name="h", url="http://h/mcp", secrets=[SecretRef(kind="env", name="TOKEN", key="k")])


def test_two_secrets_for_one_header_or_a_secret_shadowing_a_plain_value_are_refused() -> None:
    with pytest.raises(ValidationError):
        A2AProfile(
            name="a",
            url="http://h/",
            secrets=[SecretRef(kind="bearer", key="a"), SecretRef(kind="header", name="authorization", key="b")],
        )
    with pytest.raises(ValidationError):
        MCPStdioProfile(
            name="s", command="srv", env={"MODE": "x"}, secrets=[SecretRef(kind="env", name="MODE", key="k")]
        )


def test_a_secret_ref_names_its_destination() -> None:
    assert SecretRef(kind="bearer", key="k").target == "Authorization"
    assert SecretRef(kind="api-key", key="k").target == "X-API-Key"
    assert SecretRef(kind="api-key", name="X-Goog-Api-Key", key="k").target == "X-Goog-Api-Key"
    assert SecretRef(kind="env", name="HF_TOKEN", key="k").target == "HF_TOKEN"
    with pytest.raises(ValidationError):
        SecretRef(kind="header", key="k")  # a header secret needs a header name
    with pytest.raises(ValidationError):
        SecretRef(kind="env", name="not a var", key="k")
    with pytest.raises(ValidationError):
        SecretRef(kind="bearer", key="")


def test_a_secret_ref_has_no_field_for_a_value() -> None:
    with pytest.raises(ValidationError) as exc:
        SecretRef.model_validate({"kind": "bearer", "key": "k", "value": SECRET_VALUE})
    assert error_types(exc.value) == ["extra_forbidden"]


def test_roots_must_be_file_uris() -> None:
    with pytest.raises(ValidationError):
        Root(uri="https://example.test/")
    assert Root(uri="file:///srv", name="srv").name == "srv"


def test_profiles_are_immutable_and_with_changes_validates_again() -> None:
    profile = MCPHTTPProfile(name="h", url="http://h/mcp")
    with pytest.raises(ValidationError):
        profile.name = "other"  # type: ignore[misc]
    renamed = profile.with_changes(name="renamed")
    assert (renamed.name, renamed.id) == ("renamed", profile.id)
    with pytest.raises(ValidationError) as exc:
        profile.with_changes(headers={"Authorization": SECRET_VALUE})
    assert error_types(exc.value) == [PLAINTEXT_SECRET]
