"""OAuth 2.x as both protocols do it alike: PKCE, client authentication, token request forms, token responses.

The MCP adapter (``workbench.core.protocols.mcp``) and the A2A adapter
(``workbench.core.protocols.a2a``) send their token requests through their own HTTP clients; what
goes into those requests and what comes back is decided here, once, without any HTTP client or
protocol SDK:

- ``pkce``: the code verifier and its S256 challenge (RFC 7636);
- ``forms``: the authorization request's query and the token request form of each grant
  (``authorization_code``, ``refresh_token``, ``client_credentials``, the JWT bearer grant of
  RFC 7523, the token exchange of RFC 8693) as a ``TokenRequest``;
- ``client_auth``: how the client authenticates at the token endpoint (``none``,
  ``client_secret_basic``, ``client_secret_post``, ``private_key_jwt``);
- ``assertions``: the JWTs of RFC 7523, signed (the client's assertion) and checked before one is sent;
- ``tokens``: a token response read and checked into a ``TokenSet`` (typed errors, no secret in a message);
- ``refusal``: a refused step recorded in the login's ``StepLog`` with the error that says why.

Modules are imported one by one (``from workbench.core.oauth.forms import ...``); the package
itself imports none of them, so importing one costs only what it needs.
"""
