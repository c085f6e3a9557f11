"""Saved connection profiles: what a profile is, where profiles are kept, and the use cases on them.

- ``model``: the profile types (``MCPStdioProfile``, ``MCPHTTPProfile``, ``MCPSSEProfile``,
  ``A2AProfile``; ``ConnectionProfile`` is their union), secret references, roots, and their
  validation. This package re-exports them: ``from workbench.core.profiles import MCPHTTPProfile``.
- ``store``: ``ProfileStore``, the profiles in ``profiles.json`` in the configuration directory.
- ``credential_keys``: the keys a profile's secrets and OAuth login have in the credential store.
- ``service``: ``ProfileService``, the use cases the window and the command line share (save with
  secrets and roll back, remove, rename, allowed origins).

Importing the package loads ``model`` only; the others are imported by name when needed.
"""

from workbench.core.profiles.model import (
    DEFAULT_API_KEY_HEADER,
    PLAINTEXT_SECRET,
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
    SecretKind,
    SecretRef,
    looks_like_secret_name,
    new_profile_id,
    parse_profile,
    uses_oauth,
    validation_details,
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
    "looks_like_secret_name",
    "new_profile_id",
    "parse_profile",
    "uses_oauth",
    "validation_details",
]
