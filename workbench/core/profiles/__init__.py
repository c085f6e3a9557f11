"""Saved connection profiles: what a profile is, where profiles are kept, and the use cases on them.

- ``model``: the profile types (``MCPStdioProfile``, ``MCPHTTPProfile``, ``MCPSSEProfile``,
  ``A2AProfile``; ``ConnectionProfile`` is their union), roots, and their validation.
- ``secret_refs``: secret references (``SecretRef``, ``SecretKind``) and the checks that refuse a
  literal secret in a profile (error type ``PLAINTEXT_SECRET``).
- ``store``: ``ProfileStore``, the profiles in ``profiles.json`` in the configuration directory.
- ``credential_keys``: the keys a profile's secrets and OAuth login have in the credential store.
- ``oauth_files``: the files an OAuth profile names (client key, workload JWT, ID token), read and checked.
- ``oauth_secrets``: an OAuth profile's own secrets in the store (``secret set NAME oauth-…``).
- ``service``: ``ProfileService``, the use cases the window and the command line share (save with
  secrets and roll back, remove, rename, allowed origins).

This package re-exports the names of ``model`` and ``secret_refs``:
``from workbench.core.profiles import MCPHTTPProfile``. Importing it loads those two only; the others
are imported by name when needed.
"""

from workbench.core.profiles.model import (
    PROFILE_ADAPTER,
    PROFILE_LIST_ADAPTER,
    A2ABinding,
    A2AProfile,
    A2AProtocolVersion,
    ConnectionProfile,
    MCPHTTPProfile,
    MCPMode,
    MCPSSEProfile,
    MCPStdioProfile,
    Root,
    a2a_oauth_set,
    names_oauth_client,
    new_profile_id,
    parse_profile,
    uses_oauth,
    validation_details,
)
from workbench.core.profiles.secret_refs import (
    DEFAULT_API_KEY_HEADER,
    PLAINTEXT_SECRET,
    SecretKind,
    SecretRef,
    looks_like_secret_name,
)

__all__ = [
    "DEFAULT_API_KEY_HEADER",
    "PLAINTEXT_SECRET",
    "PROFILE_ADAPTER",
    "PROFILE_LIST_ADAPTER",
    "A2ABinding",
    "A2AProfile",
    "A2AProtocolVersion",
    "ConnectionProfile",
    "MCPHTTPProfile",
    "MCPMode",
    "MCPSSEProfile",
    "MCPStdioProfile",
    "Root",
    "SecretKind",
    "SecretRef",
    "a2a_oauth_set",
    "looks_like_secret_name",
    "names_oauth_client",
    "new_profile_id",
    "parse_profile",
    "uses_oauth",
    "validation_details",
]
