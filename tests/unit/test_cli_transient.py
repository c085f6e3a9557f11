"""Ad-hoc command-line targets become transient profiles, built by the same factory as saved ones."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import ValidationError

from workbench.cli.targets import TargetSpec
from workbench.cli.transient import transient_profile
from workbench.core.agent_factory import build_agent
from workbench.core.profiles import A2AProfile, MCPHTTPProfile, MCPStdioProfile
from workbench.core.wire.recorder import WireRecorder


def test_an_http_target_keeps_what_a_saved_profile_would_refuse_to_store() -> None:
    spec = TargetSpec(
        "mcp-http",
        url="https://mcp.example.com/mcp?api_key=k1&x=1",
        headers={"Authorization": "Bearer t0k3n", "X-Trace": "on"},
        mode="legacy",
        agent_tool="chat",
        connect_timeout=3,
        request_timeout=None,
        allow_origins=["https://auth.example.com:443"],
    )
    profile = transient_profile(spec)
    assert isinstance(profile, MCPHTTPProfile)
    assert profile.url == "https://mcp.example.com/mcp?api_key=k1&x=1"
    assert profile.headers == {"Authorization": "Bearer t0k3n", "X-Trace": "on"}
    assert (profile.mode, profile.agent_tool, profile.connect_timeout, profile.request_timeout) == (
        "legacy",
        "chat",
        3,
        None,
    )
    assert profile.credential_origins() == [spec.url, "https://auth.example.com:443"]
    assert profile.name == "mcp-http https://mcp.example.com/mcp?api_key=k1&x=1"


def test_a_stdio_target_keeps_secret_looking_environment_variables() -> None:
    profile = transient_profile(TargetSpec("mcp-stdio", command=["node", "server.js", "--x"], env={"API_TOKEN": "s"}))
    assert isinstance(profile, MCPStdioProfile)
    assert (profile.command, profile.args, profile.env) == ("node", ["server.js", "--x"], {"API_TOKEN": "s"})


def test_an_a2a_target_names_its_binding_and_a_long_label_is_cut() -> None:
    url = "http://127.0.0.1:9/" + "a" * 300
    profile = transient_profile(TargetSpec("a2a", url=url, binding="HTTP+JSON"))
    assert isinstance(profile, A2AProfile)
    assert profile.binding == "HTTP+JSON" and profile.url == url
    assert len(profile.name) == 200 and profile.name.endswith("…")


def test_a_value_no_profile_can_hold_is_refused() -> None:
    with pytest.raises(ValidationError):
        transient_profile(TargetSpec("mcp-http", url="ftp://example.com/mcp"))
    with pytest.raises(ValidationError):
        transient_profile(TargetSpec("mcp-http", url="http://127.0.0.1:9/mcp", connect_timeout=0))


def test_the_agent_of_a_transient_profile_takes_the_name_its_peer_gives() -> None:
    spec = TargetSpec("a2a", url="http://127.0.0.1:9", headers={"Authorization": "Bearer t0k3n"})
    wire = WireRecorder()
    agent = asyncio.run(build_agent(transient_profile(spec), wire=wire, peer_names_itself=True))
    assert agent.name != transient_profile(spec).name  # not the label: the card's name once connected
    saved = asyncio.run(build_agent(transient_profile(spec), wire=wire))
    assert saved.name == transient_profile(spec).name
