"""What the connection dialog's OAuth section offers an A2A profile: its client choices, fields and note."""

from __future__ import annotations

A2A_CLIENT_CHOICES: list[tuple[str, str]] = [
    ("per-scheme", "Each scheme's own (asked for when needed)"),
    ("pre-registered", "Pre-registered client (id and secret)"),
    ("private-key-jwt", "Private key JWT (client id and key)"),
]
"""The client selector's entries for an A2A profile: its ``oauth_client`` value and label."""
A2A_FIELDS = frozenset(
    {
        "oauth_client",
        "oauth_client_id",
        "oauth_token_auth",
        "oauth_client_key_file",
        "oauth_client_key_algorithm",
        "oauth_dpop",
    }
)
"""The A2A profile fields the section edits."""

A2A_LOGIN = (
    "For the OAuth schemes the agent card declares (it names their flows): log in with “Log in (OAuth)” or by "
    "connecting"
)
"""The start of the section's note for an A2A profile (``oauth_section.login_note`` ends it)."""
