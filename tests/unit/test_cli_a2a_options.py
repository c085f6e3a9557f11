"""``--a2a-version`` and ``--binding`` reach the agent: from an ad-hoc target and over a saved profile."""

from __future__ import annotations

import argparse
import asyncio

import pytest

from workbench.cli.profile_overrides import with_overrides
from workbench.cli.targets import add_target_options, target_from_args
from workbench.cli.transient import transient_profile
from workbench.core.agent_factory import build_agent
from workbench.core.errors import ConfigError
from workbench.core.profiles import A2AProfile, MCPHTTPProfile
from workbench.core.wire.recorder import WireRecorder


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_target_options(parser)
    parser.add_argument("--timeout", type=float)
    return parser.parse_args(list(argv))


def _agent(profile: A2AProfile) -> object:
    return asyncio.run(build_agent(profile, wire=WireRecorder()))


@pytest.mark.parametrize(("flag", "binding"), [("grpc", "GRPC"), ("http-json", "HTTP+JSON"), ("jsonrpc", "JSONRPC")])
def test_an_a2a_target_carries_its_version_and_binding_to_the_agent(flag: str, binding: str) -> None:
    spec = target_from_args(_args("--a2a", "http://127.0.0.1:9", "--a2a-version", "0.3", "--binding", flag), [])
    profile = transient_profile(spec)
    assert isinstance(profile, A2AProfile)
    assert (profile.binding, profile.protocol_version) == (binding, "0.3")
    agent = _agent(profile)
    assert (agent.config.binding, agent.config.protocol_version) == (binding, "0.3")  # type: ignore[attr-defined]


def test_a2a_version_on_an_mcp_target_is_refused() -> None:
    with pytest.raises(ConfigError) as caught:
        target_from_args(_args("--mcp", "http://127.0.0.1:9/mcp", "--a2a-version", "1.0"), [])
    assert caught.value.details == {"option": "--a2a-version"}


def test_binding_and_version_over_a_saved_a2a_profile_use_the_profiles_names() -> None:
    saved = A2AProfile(name="agent", url="http://127.0.0.1:9")
    # the command line's spellings ('jsonrpc') become the profile's names ('JSONRPC')
    profile = with_overrides(saved, _args("--profile", "agent", "--binding", "jsonrpc", "--a2a-version", "0.3"))
    assert isinstance(profile, A2AProfile)
    assert (profile.binding, profile.protocol_version) == ("JSONRPC", "0.3")


def test_a2a_version_over_an_mcp_profile_is_refused() -> None:
    saved = MCPHTTPProfile(name="mcp", url="http://127.0.0.1:9/mcp")
    with pytest.raises(ConfigError) as caught:
        with_overrides(saved, _args("--profile", "mcp", "--a2a-version", "1.0"))
    assert caught.value.details["option"] == "--a2a-version"
