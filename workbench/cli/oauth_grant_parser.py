"""The command line's options for the OAuth grants without a browser and for OAuth secrets in the keyring.

``profile add/edit`` get the JWT bearer grant's workload JWT file and the enterprise-managed grant's
IdP settings and ID token file (``add_oauth_grant_options``); ``secret set`` gets ``--file`` and
``--algorithm`` for a value read from a file, such as a ``private_key_jwt`` client's PEM key
(``add_secret_file_options``). ``parser`` adds them and reads their values, as it reads every option
(the one reading of the namespace). Only argparse is imported.
"""

from __future__ import annotations

import argparse

from workbench.core.oauth_names import SIGNING_ALGORITHMS

OAUTH_GRANTS = ("authorization_code", "client_credentials", "jwt_bearer", "enterprise_managed")
"""The ``--oauth-grant`` values: the profile's ``oauth_grant``."""

OAUTH_GRANT_HELP = (
    "with --oauth: authorization_code (a browser sign-in, the default), client_credentials (the client for "
    "itself), jwt_bearer (a workload's JWT: --oauth-assertion-file, or secret set NAME oauth-assertion) or "
    "enterprise_managed (an ID token exchanged at the enterprise IdP: --oauth-idp-*)"
)

OAUTH_SECRET_KINDS = (
    "oauth-client-secret",
    "oauth-client-key",
    "oauth-assertion",
    "oauth-id-token",
    "oauth-idp-client-secret",
)
"""The ``secret set`` kinds that are an OAuth profile's own secrets (``workbench.core.profiles.oauth_secrets``)."""


def add_oauth_grant_options(parser: argparse.ArgumentParser) -> None:
    """``profile add/edit``'s settings of the JWT bearer and enterprise-managed grants."""
    parser.add_argument(
        "--oauth-assertion-file",
        metavar="FILE",
        help="jwt_bearer: the file holding the workload's JWT (e.g. a Kubernetes projected token), read at each "
        "login; the profile keeps its path",
    )
    parser.add_argument(
        "--oauth-idp-token-endpoint",
        metavar="URL",
        help="enterprise_managed: the IdP's token endpoint, where the ID token is exchanged for an ID-JAG",
    )
    parser.add_argument("--oauth-idp-client-id", metavar="ID", help="enterprise_managed: this client's id at the IdP")
    parser.add_argument(
        "--oauth-id-token-file",
        metavar="FILE",
        help="enterprise_managed: the file holding the user's ID token, read at each login (else: "
        "secret set NAME oauth-id-token)",
    )


def add_secret_file_options(parser: argparse.ArgumentParser) -> None:
    """``secret set``'s ``--file`` (the value from a file) and ``--algorithm`` (a client key's)."""
    parser.add_argument(
        "--file",
        metavar="FILE",
        help="read the value from FILE instead of standard input (e.g. oauth-client-key --file key.pem)",
    )
    parser.add_argument(
        "--algorithm",
        choices=SIGNING_ALGORITHMS,
        default=None,
        metavar="ALG",
        help="oauth-client-key: the signature algorithm (default: the profile's if the key fits, else the key's)",
    )
