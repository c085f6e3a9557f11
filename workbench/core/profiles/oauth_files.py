"""The files an OAuth profile names, read and checked: a client's private key, a workload JWT, an ID token.

The command line checks them when a profile is added or edited and the window when it is saved, so a
profile never names a file that cannot work; the login reads the token files again each time
(``read_token_file``), because a platform rotates them (a Kubernetes projected service account token).
Errors are ``ConfigError``s with ``details["oauth"]`` (``client-key-unreadable``, ``client-key-algorithm``,
``token-file-unreadable``, ``token-file-empty``, ``token-file-not-jwt``) and ``details["field"]``, the
profile field; they never carry the file's content.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from workbench.core.errors import ConfigError
from workbench.core.oauth_grant_options import PrivateKeyJWTClient, SigningAlgorithm, key_algorithms

TOKEN_FILE_WHAT = {"oauth_assertion_file": "the workload's JWT", "oauth_id_token_file": "the ID token"}
"""What each token file field holds, as the errors name it."""

_MAX_TOKEN_BYTES = 64 * 1024


@dataclass(frozen=True, slots=True)
class CheckedKey:
    """A client key file that reads and fits: its absolute path, its PEM text and the algorithm it signs.

    Attributes:
        path: The file, made absolute.
        pem: The PEM text; never shown in ``repr``.
        algorithm: The algorithm asked for, else the key's usual one.
    """

    path: str
    pem: str
    algorithm: SigningAlgorithm

    def __repr__(self) -> str:
        return f"CheckedKey(path={self.path!r}, algorithm={self.algorithm!r})"


def absolute(path: str) -> str:
    """``path`` with ``~`` expanded, made absolute (a profile keeps the path wherever it is used from)."""
    return os.path.abspath(os.path.expanduser(path))


def check_client_key_pem(pem: str, algorithm: str | None) -> SigningAlgorithm:
    """The algorithm a PEM private key signs client assertions with: ``algorithm`` if it can, else refused.

    Args:
        pem: The key as PEM text.
        algorithm: The algorithm asked for (``None``: the key's usual one).

    Raises:
        ConfigError: Not an unencrypted RSA or EC private key (``client-key-unreadable``), or one that
            cannot sign ``algorithm`` (``client-key-algorithm``).
    """
    fits = key_algorithms(pem)
    if algorithm is None:
        return fits[0]
    if algorithm not in fits:
        raise ConfigError(
            f"The client key cannot sign {algorithm} assertions.",
            hint=f"choose the algorithm {fits[0]}, or the key for {algorithm}",
            details={"oauth": "client-key-algorithm", "field": "oauth_client_key_algorithm"},
        )
    return next(a for a in fits if a == algorithm)


def check_client_key_file(path: str, algorithm: str | None) -> CheckedKey:
    """Read a ``private_key_jwt`` client's key file and check the key signs ``algorithm``.

    Raises:
        ConfigError: The file cannot be read, holds no usable private key, or not one for ``algorithm``
            (``details["field"] == "oauth_client_key_file"`` or ``"oauth_client_key_algorithm"``).
    """
    full = absolute(path)
    try:
        pem = PrivateKeyJWTClient.from_file("key-check", full).private_key_pem  # the id is not used
        return CheckedKey(full, pem, check_client_key_pem(pem, algorithm))
    except ConfigError as exc:
        exc.details.setdefault("field", "oauth_client_key_file")
        raise


def read_token_file(path: str, field: str) -> str:
    """The token a token file holds (surrounding white space dropped), read now.

    Args:
        path: The file.
        field: The profile field that names it (``oauth_assertion_file`` or ``oauth_id_token_file``).

    Raises:
        ConfigError: The file cannot be read (``token-file-unreadable``), is empty
            (``token-file-empty``) or holds no JWT (``token-file-not-jwt``).
    """
    what = TOKEN_FILE_WHAT.get(field, "the token")
    try:
        with Path(path).open("rb") as handle:
            raw = handle.read(_MAX_TOKEN_BYTES + 1)
        text = raw.decode("ascii").strip()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(
            f"Cannot read the file of {what}, {path!r}.",
            hint="check the path and that the file is readable",
            details={"oauth": "token-file-unreadable", "field": field},
        ) from exc
    if not text:
        raise ConfigError(
            f"The file of {what}, {path!r}, is empty.",
            hint="point the profile at the file the platform writes the token to",
            details={"oauth": "token-file-empty", "field": field},
        )
    if len(raw) > _MAX_TOKEN_BYTES or text.count(".") != 2 or any(c.isspace() for c in text):
        raise ConfigError(
            f"The file of {what}, {path!r}, does not hold a JWT.",
            hint="the file holds the token alone: three base64url parts separated by dots",
            details={"oauth": "token-file-not-jwt", "field": field},
        )
    return text


def check_token_file(path: str, field: str) -> str:
    """The absolute path of a token file that holds a JWT now (the login reads it again).

    Raises:
        ConfigError: As ``read_token_file``.
    """
    full = absolute(path)
    read_token_file(full, field)
    return full
