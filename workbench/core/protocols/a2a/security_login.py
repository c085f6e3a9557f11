"""Signing in to an A2A agent's OAuth schemes on purpose (``workbench login``), and forgetting the tokens.

A connected agent's card names its OAuth 2.0 / OpenID Connect schemes; ``sign_in`` sets the stored
tokens of the schemes it would use aside and runs each scheme's flow now (client credentials, or the
authorization code with PKCE in the browser), each exchange an auth step as in a call. ``forget_tokens``
deletes the tokens of every OAuth scheme the card declares. A card without an OAuth scheme is a
``ConfigError`` (``details["oauth"] == "no-oauth-scheme"``): there is nothing to log in to.
"""

from __future__ import annotations

from workbench.core.auth_steps import AuthStage
from workbench.core.errors import AuthRequiredError, ConfigError
from workbench.core.oauth.tokens import TokenSet
from workbench.core.protocols.a2a.agent import A2AAgent
from workbench.core.protocols.a2a.security import CredentialNeed
from workbench.core.protocols.a2a.security_auth import TOKEN_FIELD, SecurityAuth
from workbench.core.protocols.a2a.security_tokens import needs_secret

__all__ = ["forget_tokens", "oauth_needs", "oauth_schemes", "sign_in"]


def oauth_needs(security: SecurityAuth) -> list[CredentialNeed]:
    """The OAuth needs a call would meet: those of the first supported alternative of the card that has any."""
    for alternative in security.alternatives():
        if alternative.supported and any(need.is_oauth for need in alternative.needs):
            return [need for need in alternative.needs if need.is_oauth]
    return []


def oauth_schemes(security: SecurityAuth) -> list[str]:
    """The names of every OAuth / OpenID Connect scheme the card's requirements use, in card order."""
    names = [need.scheme for alt in security.alternatives() for need in alt.needs if need.is_oauth]
    return list(dict.fromkeys(names))


def _no_oauth(agent: A2AAgent) -> ConfigError:
    return ConfigError(
        f"The agent card of {agent.config.url} declares no OAuth 2.0 or OpenID Connect scheme; there is "
        "nothing to log in to.",
        hint="its security schemes: workbench inspect --profile NAME; store an API key or token with "
        "workbench secret set NAME …",
        details={"oauth": "no-oauth-scheme", "url": agent.config.url},
    )


async def sign_in(agent: A2AAgent, *, timeout: float) -> list[TokenSet]:
    """Obtain fresh tokens for the OAuth schemes the card asks for, the stored ones set aside.

    Args:
        agent: A connected agent (its card is known).
        timeout: Seconds a browser sign-in may take.

    Returns:
        The tokens, one per scheme, as stored.

    Raises:
        ConfigError: The card declares no OAuth scheme the workbench can use.
        AuthRequiredError: The authorization server refused, or the scheme cannot be signed in to
            without more: no client id (``details["oauth"] == "client-missing"``), a public client
            for client credentials (``client-secret-missing``), no endpoint in the card
            (``endpoint-missing``). Nothing is stored then.
        OAuthRefusedError: A check of the flow failed (the step is named).
        RequestTimeoutError: Nobody came back from the browser in time.
    """
    security = agent.security
    needs = oauth_needs(security)
    if not needs:
        raise _no_oauth(agent)
    security.authorization_timeout = timeout
    tokens: list[TokenSet] = []
    for need in needs:
        stored = await security.store.get(security.key(need.scheme, TOKEN_FIELD))
        old = TokenSet.from_json(stored.get_secret_value()) if stored is not None else None
        await security.drop_token(need.scheme)
        if old is not None and old.refresh_token and security.steps is not None:
            security.steps.step(
                AuthStage.REFRESH,
                "skipped",
                f"a refresh token was stored for the scheme {need.scheme!r}; a login signs in afresh instead: "
                "the stored tokens are set aside (not revoked)",
                subject="refresh_token",
            )
        token = await security.oauth_token(need, interactive=True)
        if token is None:
            raise await _cannot_sign_in(security, need)
        tokens.append(token)
    return tokens


async def _cannot_sign_in(security: SecurityAuth, need: CredentialNeed) -> AuthRequiredError:
    """Why no token could be had for ``need`` without a refusal: what is missing, and how to give it."""
    details: dict[str, object] = {"scheme": need.scheme, "step": AuthStage.TOKEN.value}
    client = security.oauth_client
    if client is None and not await security.value(need.scheme, "client_id"):
        return AuthRequiredError(
            f"The scheme {need.scheme!r} of the agent card needs an OAuth client; none is set.",
            hint="name the client: workbench profile edit NAME --oauth-client-id ID "
            "(then workbench secret set NAME oauth-client-secret)",
            details={**details, "oauth": "client-missing"},
        )
    if need.type == "oauth2-client-credentials" and (client is None or needs_secret(client)):
        return AuthRequiredError(
            f"The scheme {need.scheme!r} runs the client credentials grant; the client has no secret or key.",
            hint="give the client a secret (--oauth-token-auth client_secret_basic, then workbench secret set "
            "NAME oauth-client-secret) or a key (--oauth-client-key-file)",
            details={**details, "oauth": "client-secret-missing"},
        )
    return AuthRequiredError(
        f"The scheme {need.scheme!r} of the agent card names no endpoint to get a token from.",
        hint="the agent's card is incomplete; ask its operator",
        details={**details, "oauth": "endpoint-missing"},
    )


async def forget_tokens(agent: A2AAgent) -> int:
    """Delete the stored tokens of every OAuth scheme the connected agent's card declares.

    Returns:
        How many stored tokens were deleted.

    Raises:
        ConfigError: The card declares no OAuth scheme.
    """
    security = agent.security
    schemes = oauth_schemes(security)
    if not schemes:
        raise _no_oauth(agent)
    forgotten = 0
    for scheme in schemes:
        if await security.store.get(security.key(scheme, TOKEN_FIELD)) is not None:
            forgotten += 1
        await security.drop_token(scheme)
    return forgotten
