"""``workbench profile …``, ``workbench secret …``, ``workbench login`` and ``workbench logout``.

Saved profiles, their secrets in the OS keyring, and OAuth logins for profiles saved with ``--oauth`` and
for A2A profiles whose agent card declares an OAuth scheme.
Secret values are read from standard input (never from argv, where ``ps`` and shell history see them).
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from typing import Any

from pydantic import SecretStr, ValidationError

from workbench.cli.a2a_oauth_fields import a2a_oauth_fields, refuse_mcp_login
from workbench.cli.client_options import apply_client_options, client_summary
from workbench.cli.login_explain import StepPrinter
from workbench.cli.oauth_fields import oauth_client_fields, read_secret_value
from workbench.cli.options import (
    LoginOptions,
    LogoutOptions,
    OAuthClientOptions,
    ProfileAddOptions,
    ProfileCommandOptions,
    ProfileEditOptions,
    ProfileListOptions,
    ProfileRemoveOptions,
    SecretClearOptions,
    SecretSetOptions,
    TargetOptions,
)
from workbench.cli.profile_overrides import apply_overrides
from workbench.cli.render import print_error
from workbench.cli.sampling_cli import ModelCommandOptions
from workbench.cli.targets import parse_origins, target_spec
from workbench.cli.tool_approval_cli import with_tool_approval
from workbench.core.credentials import KeyringCredentialStore
from workbench.core.errors import ConfigError, WorkbenchError
from workbench.core.oauth_login import login, logout
from workbench.core.profiles import (
    A2AProfile,
    ConnectionProfile,
    MCPHTTPProfile,
    MCPSSEProfile,
    MCPStdioProfile,
    a2a_oauth_set,
    uses_oauth,
    validation_details,
)
from workbench.core.profiles.credential_keys import parse_secret_spec
from workbench.core.profiles.oauth_secrets import OAUTH_SECRETS, set_oauth_secret
from workbench.core.profiles.service import ProfileService
from workbench.core.profiles.store import ProfileStore
from workbench.core.shell_quote import shown_command

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2

OAUTH_TEST_FOLLOW_ENV = "WORKBENCH_OAUTH_TEST_FOLLOW"
"""TEST HOOK: ``1`` makes ``workbench login`` follow the authorization URL with an HTTP client instead of a
browser (only works with authorization servers that approve without a person, like the test server)."""


def run_profile_command(options: ProfileCommandOptions) -> int:
    """Run ``profile …``, ``secret …``, ``login`` or ``logout``; returns the exit code."""
    try:
        if isinstance(options, LoginOptions | LogoutOptions):
            try:
                return asyncio.run(_oauth(options))
            except KeyboardInterrupt:
                print(f"{'login' if isinstance(options, LoginOptions) else 'logout'} cancelled", file=sys.stderr)
                return 130
        if isinstance(options, SecretSetOptions | SecretClearOptions):
            return asyncio.run(_secret(options))
        if isinstance(options, ModelCommandOptions):
            from workbench.cli.model_commands import run_model_command

            return asyncio.run(run_model_command(options))
        return asyncio.run(_profile(options))
    except WorkbenchError as exc:
        print_error(exc, as_json=options.json)
        return EXIT_USAGE if isinstance(exc, ConfigError) else EXIT_FAILED


async def _profile(options: ProfileCommandOptions) -> int:
    profiles = ProfileService(ProfileStore(options.config_dir), KeyringCredentialStore())
    if isinstance(options, ProfileListOptions):
        saved = profiles.saved()
        if options.json:
            for p in saved:
                print(json.dumps(p.model_dump(mode="json")))
        else:
            for p in saved:
                key = (
                    " [secrets: " + ", ".join(r.kind.value + (":" + r.name if r.name else "") for r in p.secrets) + "]"
                )
                oauth = _oauth_summary(p)
                origins = getattr(p, "allowed_origins", None)
                also = f" [also to: {', '.join(origins)}]" if origins else ""
                also += client_summary(p)  # MCP: the roots offered, the capabilities not advertised
                print(f"{p.name:<24} {p.kind:<10} {_target(p)}{key if p.secrets else ''}{oauth}{also}  (id {p.id})")
        return EXIT_OK
    if isinstance(options, ProfileRemoveOptions):
        profile = profiles.find(options.name)
        await profiles.remove(profile)  # credentials first: one the keyring refuses keeps the profile, to retry
        print(f"removed {profile.name}", file=sys.stderr)
        return EXIT_OK
    if isinstance(options, ProfileEditOptions):
        edited = with_tool_approval(_edited_profile(profiles.find(options.name), options), options.tool_approval)
        if options.oauth_client or options.oauth:
            await profiles.save_oauth_client(edited, _client_secret(options.oauth_client, edited))
        else:
            profiles.put(edited)
        print(f"saved {edited.name} (id {edited.id})", file=sys.stderr)
        return EXIT_OK
    assert isinstance(options, ProfileAddOptions)
    new = apply_client_options(_new_profile(options), options.target.client)  # --root, --no-sampling …
    new = with_tool_approval(new, options.tool_approval)
    if options.oauth_client:
        secret = _client_secret(options.oauth_client, new)
        if secret is None and _needs_client_secret(new):
            raise ConfigError(
                "A pre-registered OAuth client with a client secret method needs its secret.",
                hint="add --oauth-client-secret-from-stdin or --oauth-client-secret-ask (or --oauth-token-auth none)",
            )
        new = await profiles.save_oauth_client(new, secret, new=True)
    else:
        new = profiles.add(new)
    print(f"saved {new.name} (id {new.id})", file=sys.stderr)
    return EXIT_OK


def _needs_client_secret(profile: ConnectionProfile) -> bool:
    return (
        getattr(profile, "oauth_client", "") == "pre-registered" and getattr(profile, "oauth_token_auth", "") != "none"
    )


def _client_secret(client: OAuthClientOptions, profile: ConnectionProfile) -> SecretStr | None:
    """The pre-registered client's secret, from standard input or a hidden prompt (never from argv).

    Raises:
        ConfigError: A secret option for a profile that is not pre-registered, or an empty secret.
    """
    if client.secret_from is None:
        return None
    if not _needs_client_secret(profile):
        raise ConfigError(
            "A client secret is for a pre-registered OAuth client with a client secret method.",
            hint="give --oauth-client-id ID (and not --oauth-token-auth none)",
        )
    if client.secret_from == "ask":
        import getpass

        value = getpass.getpass(f"OAuth client secret for {profile.name}: ")
    else:
        value = sys.stdin.read().rstrip("\r\n")
    if not value:
        raise ConfigError("No client secret was given.", hint="type it at the prompt or pipe it to standard input")
    return SecretStr(value)


def _oauth_summary(profile: ConnectionProfile) -> str:
    """`` [oauth: <client>, <grant>[, DPoP]]`` for a profile that logs in with OAuth, else ``""``.

    An A2A profile's says its client (the card names the grant) when it is set: `` [oauth: pre-registered]``.
    """
    if a2a_oauth_set(profile):
        assert isinstance(profile, A2AProfile)
        return f" [oauth: {', '.join([profile.oauth_client, *(['DPoP'] if profile.oauth_dpop else [])])}]"
    if not isinstance(profile, MCPHTTPProfile | MCPSSEProfile) or not uses_oauth(profile):
        return ""
    parts = [profile.oauth_client, profile.oauth_grant, *(["DPoP"] if profile.oauth_dpop else [])]
    return f" [oauth: {', '.join(parts)}]"


def _target(profile: ConnectionProfile) -> str:
    if isinstance(profile, MCPStdioProfile):
        return shown_command([profile.command, *profile.args])
    return profile.url


def _new_profile(options: ProfileAddOptions) -> ConnectionProfile:
    spec = target_spec(options.target)
    fields: dict[str, Any] = {"name": options.name}
    timeouts = options.target.timeouts
    if timeouts.connect is not None:
        fields["connect_timeout"] = timeouts.connect
    if timeouts.request is not None:
        fields["request_timeout"] = timeouts.request
    try:
        if spec.protocol == "mcp-stdio":
            if spec.allow_origins:
                raise ConfigError("--allow-origin is for HTTP targets; a --stdio server gets no credentials by URL.")
            return MCPStdioProfile(
                command=spec.command[0], args=spec.command[1:], env=spec.env, mode=spec.mode, **fields
            )
        fields.update(spec.limits)  # an HTTP target's size limits (refused for --stdio by target_spec)
        mcp_fields: dict[str, Any] = {"mode": spec.mode, "agent_tool": spec.agent_tool}
        if spec.protocol == "a2a":
            refuse_mcp_login(options.oauth, bool(options.oauth_scopes))
            return A2AProfile(
                url=spec.url,
                headers=spec.headers,
                binding=spec.binding,
                protocol_version=spec.a2a_version,
                allowed_origins=spec.allow_origins,
                **a2a_oauth_fields(options.oauth_client),
                **fields,
            )
        if options.oauth:
            if spec.protocol not in ("mcp-http", "mcp-sse"):
                raise ConfigError("--oauth is for MCP servers over HTTP (--mcp or --mcp-sse).")
            mcp_fields.update(auth="oauth", oauth_scopes=list(options.oauth_scopes))
            mcp_fields.update(oauth_client_fields(options.oauth_client))
        elif options.oauth_scopes or options.oauth_client:
            raise ConfigError("--oauth-scope and --oauth-client-* need --oauth.")
        fields["allowed_origins"] = spec.allow_origins
        if spec.protocol == "mcp-http":
            return MCPHTTPProfile(url=spec.url, headers=spec.headers, **mcp_fields, **fields)
        return MCPSSEProfile(url=spec.url, headers=spec.headers, **mcp_fields, **fields)
    except ValidationError as exc:
        errors = validation_details(exc)
        first = errors[0]
        hint = None
        if first["type"] == "plaintext_secret":
            hint = "save the profile without it, then: workbench secret set NAME bearer|api-key|header:K|env:K"
        raise ConfigError(
            f"Invalid profile: {'.'.join(first['loc'])}: {first['msg']}", hint=hint, details={"errors": errors}
        ) from None


def _edited_profile(profile: ConnectionProfile, options: ProfileEditOptions) -> ConnectionProfile:
    """``profile`` with the options of ``profile edit`` applied, validated as a saved profile.

    Raises:
        ConfigError: An option does not fit the profile's kind, a value is out of range, or an origin
            to forget is not among the allowed ones.
    """
    edited = apply_overrides(profile, options.overrides)
    edited = ProfileService.without_origins(edited, parse_origins(options.forget_origins))
    if not (options.oauth or options.oauth_client):
        return edited
    if isinstance(edited, A2AProfile):
        refuse_mcp_login(options.oauth, False)
        changes = a2a_oauth_fields(options.oauth_client, edited)
    elif not isinstance(edited, MCPHTTPProfile | MCPSSEProfile):
        raise ConfigError("--oauth and --oauth-client-* are for MCP servers over HTTP and A2A agents.")
    elif not (options.oauth or uses_oauth(edited)):
        raise ConfigError("--oauth-client-* need a profile that logs in with OAuth.", hint="add --oauth")
    else:
        changes = {**({"auth": "oauth"} if options.oauth else {}), **oauth_client_fields(options.oauth_client, edited)}
    try:
        return edited.with_changes(**changes)
    except ValidationError as exc:
        raise ConfigError(
            f"Invalid profile: {validation_details(exc)[0]['msg']}", details={"errors": validation_details(exc)}
        ) from None


async def _secret(options: SecretSetOptions | SecretClearOptions) -> int:
    store = KeyringCredentialStore()
    profiles = ProfileService(ProfileStore(options.config_dir), store)
    profile = profiles.find(options.name)
    if isinstance(options, SecretClearOptions):
        kind, name = parse_secret_spec(options.kind) if options.kind else (None, "")
        _, count = await profiles.clear_secrets(profile, kind, name)
        print(f"forgot {count} secret(s) of {profile.name}", file=sys.stderr)
        return EXIT_OK
    oauth_secret = options.kind in OAUTH_SECRETS
    kind, name = (None, "") if oauth_secret else parse_secret_spec(options.kind)
    if options.algorithm and options.kind != "oauth-client-key":
        raise ConfigError("--algorithm is for oauth-client-key.")
    store.backend()  # refuse before asking for the value
    value = read_secret_value(options.file, f"{options.kind} for {profile.name}: ")
    if oauth_secret:
        await set_oauth_secret(profiles, profile, options.kind, SecretStr(value), algorithm=options.algorithm)
    else:
        assert kind is not None
        await profiles.set_secret(profile, kind, name, SecretStr(value))
    backend = store.backend()
    print(f"stored {options.kind} for {profile.name} in {backend.name}", file=sys.stderr)
    if backend.warning:
        print(f"warning: {backend.warning}", file=sys.stderr)
    return EXIT_OK


async def _oauth(options: LoginOptions | LogoutOptions) -> int:
    """``workbench login NAME`` / ``workbench logout NAME``."""
    from workbench.core.http.browser import follow_redirects_opener, system_browser_opener

    profile = ProfileStore(options.config_dir).find(options.name)
    if isinstance(options, LoginOptions) and options.allow_origins:
        profile = apply_overrides(profile, TargetOptions(allow_origins=options.allow_origins))
    if not isinstance(profile, A2AProfile) and not uses_oauth(profile):
        raise ConfigError(
            f"The profile {profile.name!r} does not log in with OAuth.",
            hint="save an MCP HTTP profile with --oauth: workbench profile add NAME --mcp URL --oauth",
        )
    assert isinstance(profile, MCPHTTPProfile | MCPSSEProfile | A2AProfile)
    store = KeyringCredentialStore()
    store.backend()  # refuse before anything happens when no secure keyring exists

    on_step = StepPrinter(explain=options.explain, as_json=options.json)

    if isinstance(options, LogoutOptions):
        out = await logout(profile, store, on_step=on_step)
        if options.json:
            print(json.dumps({"revoked": out.revoked, "forgotten": out.forgotten}))
        else:
            revoked = "; the tokens were revoked" if out.revoked else ""
            print(f"logged out of {profile.name}: forgot {out.forgotten} stored item(s){revoked}", file=sys.stderr)
        return EXIT_OK

    async def opener(url: str) -> None:
        print(f"Open this URL to log in to {profile.name}:\n  {url}", file=sys.stderr, flush=True)
        if os.environ.get(OAUTH_TEST_FOLLOW_ENV) == "1":  # TEST HOOK (see OAUTH_TEST_FOLLOW_ENV)
            await follow_redirects_opener(url)
            return
        if options.open_browser:
            try:
                await system_browser_opener(url)
            except WorkbenchError as exc:
                print(f"{exc.message} Open the URL yourself.", file=sys.stderr, flush=True)
        print(f"Waiting up to {options.timeout:.0f} s for the browser to come back …", file=sys.stderr, flush=True)

    result = await login(
        profile, store, opener=opener, on_step=on_step, timeout=options.timeout, resolve_secret=store.resolve
    )
    if options.json:
        print(json.dumps({"logged_in": profile.name, "expires_at": result.expires_at, "scope": result.scope}))
        return EXIT_OK
    facts = []
    if result.expires_at is not None:
        facts.append("token valid until " + time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(result.expires_at)))
    if result.scope:
        facts.append(f"scope {result.scope}")
    print(f"logged in to {profile.name}" + (f" ({', '.join(facts)})" if facts else ""), file=sys.stderr)
    return EXIT_OK
