"""``workbench login --explain`` against a real authorization server: each step, its exchanges and checks, its failure.

The CLI runs with a throwaway file keyring and the test hook ``WORKBENCH_OAUTH_TEST_FOLLOW=1`` (the login
follows the authorization URL with an HTTP client; the test authorization server approves at once).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.servers.oauth_as import serve_oauth_protected_mcp
from tests.support.cli_profiles import oauth_cli_env, workbench

pytestmark = pytest.mark.asyncio

IMPOSTOR = "https://impostor.example/"


def _headlines(out: str) -> list[str]:
    return re.findall(r"^\d+\. (.+?)  ", out, flags=re.MULTILINE)


async def test_login_explain_shows_each_step_with_its_exchanges_and_checks_and_never_a_token(tmp_path: Path) -> None:
    env = oauth_cli_env(tmp_path)
    async with serve_oauth_protected_mcp() as servers:
        code, _, err = await workbench(env, "profile", "add", "secure", "--mcp", servers.url, "--oauth")
        assert code == 0, err
        code, out, err = await workbench(env, "login", "secure", "--explain", "--no-browser")
        assert code == 0, err
        live = servers.provider.live_tokens()
    assert _headlines(out) == [
        "Resource metadata",
        "Authorization-server metadata",
        "Client registration",
        "Authorization request",
        "Callback",
        "Token",
    ], out
    assert re.search(r"^   ✓ resource: ", out, flags=re.MULTILINE), out
    assert re.search(r"^   ✓ issuer: ", out, flags=re.MULTILINE), out
    assert re.search(r"^   ✓ pkce: ", out, flags=re.MULTILINE), out
    assert re.search(r"^   ✓ state: ", out, flags=re.MULTILINE), out
    assert re.search(r"^   > GET \S+/\.well-known/oauth-protected-resource", out, flags=re.MULTILINE), out
    assert re.search(r'^   <   \{"access_token":"\*\*\*"', out, flags=re.MULTILINE), out
    assert "code=***" in out and "✗" not in out
    request = r"^   > GET \S+/authorize\?\S*code_challenge_method=S256\S* \(in the browser\)$"
    assert re.search(request, out, flags=re.MULTILINE) and "&state=" in out, out
    assert re.search(r"^\d+\. Callback  GET http://127\.0\.0\.1:\d+/callback \(browser\) → 200  ✓ ", out, re.MULTILINE)
    assert live and not any(token in out or token in err for token in live)


async def test_login_explain_names_the_failed_step_its_reason_and_what_to_change(tmp_path: Path) -> None:
    env = oauth_cli_env(tmp_path)
    async with serve_oauth_protected_mcp(metadata_overrides={"issuer": IMPOSTOR}) as servers:
        code, _, err = await workbench(env, "profile", "add", "secure", "--mcp", servers.url, "--oauth")
        assert code == 0, err
        code, out, err = await workbench(env, "login", "secure", "--explain", "--no-browser")
        assert code == 1, err
        assert servers.provider.counters.registrations == 0
    assert _headlines(out) == ["Resource metadata", "Authorization-server metadata"], out
    assert re.search(r"^   ✗ issuer: ", out, flags=re.MULTILINE), out
    failed = [line for line in out.splitlines() if line.startswith("✗ step ")]
    assert len(failed) == 1 and failed[0].startswith("✗ step 2 authorization-server metadata [issuer-mismatch]: ")
    assert IMPOSTOR in failed[0] and " — change: " in failed[0]
    keyring = tmp_path / "keyring.json"
    assert not keyring.exists() or not any("oauth:tokens" in key for key in json.loads(keyring.read_text()))


async def test_login_explain_json_gives_each_step_with_checks_exchanges_and_the_failure(tmp_path: Path) -> None:
    env = oauth_cli_env(tmp_path)
    async with serve_oauth_protected_mcp(metadata_overrides={"issuer": IMPOSTOR}) as servers:
        code, _, err = await workbench(env, "profile", "add", "secure", "--mcp", servers.url, "--oauth")
        assert code == 0, err
        code, out, err = await workbench(env, "login", "secure", "--explain", "--json")
        assert code == 1, err
    lines = [json.loads(line) for line in out.splitlines()]
    steps, result = lines[:-1], lines[-1]
    assert [(s["n"], s["title"], s["status"]) for s in steps] == [
        (1, "Resource metadata", "ok"),
        (2, "Authorization-server metadata", "failed"),
    ]
    assert steps[1]["failure"]["code"] == "issuer-mismatch" and steps[1]["failure"]["hint"]
    assert {c["name"]: c["outcome"] for c in steps[1]["checks"]}["issuer"] == "failed"
    metadata = steps[1]["exchanges"][0]
    assert metadata["method"] == "GET" and metadata["status"] == 200 and IMPOSTOR in metadata["response_body"]
    assert result["kind"] == "failed" and result["error"]["details"]["oauth"] == "issuer-mismatch"


async def test_a_second_login_explains_the_refresh_it_skips_and_logout_explain_shows_the_revocation(
    tmp_path: Path,
) -> None:
    env = oauth_cli_env(tmp_path)
    async with serve_oauth_protected_mcp() as servers:
        code, _, err = await workbench(env, "profile", "add", "secure", "--mcp", servers.url, "--oauth")
        assert code == 0, err
        code, _, err = await workbench(env, "login", "secure", "--no-browser")
        assert code == 0, err
        code, out, err = await workbench(env, "login", "secure", "--explain", "--no-browser")
        assert code == 0, err
        assert _headlines(out)[0] == "Refresh" and re.search(r"^1\. Refresh  – skipped$", out, re.MULTILINE), out
        assert "set aside" in out and _headlines(out)[-1] == "Token"
        live = servers.provider.live_tokens()
        code, out, err = await workbench(env, "logout", "secure", "--explain")
        assert code == 0, err
        left = servers.provider.live_tokens()
    assert len(left) == len(live) - 2  # the second login's pair; the first login's was set aside, not revoked
    assert _headlines(out) == ["Revocation"], out
    assert re.search(r"^1\. Revocation  POST \S+/revoke → 200  ✓ https, refresh_token, access_token$", out, re.M), out
    assert re.search(r"^   >   token=\*\*\*&.*client_secret=\*\*\*$", out, flags=re.MULTILINE), out
    assert live and not any(token in out or token in err for token in live)
