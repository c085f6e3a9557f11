"""The names an OAuth client option takes (token-endpoint auth methods, signing algorithms), importing nothing.

The command line's parser offers them as choices while the window is still to show, so they live apart from
the option classes (``oauth_options``, ``oauth_grant_options``), which import the HTTP layer.
"""

TOKEN_ENDPOINT_AUTH_METHODS: tuple[str, ...] = ("client_secret_basic", "client_secret_post", "none")
"""How a client authenticates at the token endpoint (RFC 7591 ``token_endpoint_auth_method``)."""

SIGNING_ALGORITHMS: tuple[str, ...] = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512")
"""The JWS algorithms a ``private_key_jwt`` client may sign its assertions with."""
