"""``key_algorithms``: which signature algorithms a private_key_jwt client's PEM key can sign with."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

from workbench.core.errors import ConfigError
from workbench.core.oauth_grant_options import key_algorithms


def _pem(key: rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey | ed25519.Ed25519PrivateKey) -> str:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode("ascii")


@pytest.mark.parametrize(("curve", "algorithm"), [(ec.SECP256R1(), "ES256"), (ec.SECP384R1(), "ES384")])
def test_an_ec_key_signs_with_the_one_algorithm_of_its_curve(curve: ec.EllipticCurve, algorithm: str) -> None:
    assert key_algorithms(_pem(ec.generate_private_key(curve))) == (algorithm,)


def test_an_rsa_key_signs_rs_and_ps_algorithms_rs256_first() -> None:
    algorithms = key_algorithms(_pem(rsa.generate_private_key(public_exponent=65537, key_size=2048)))
    assert algorithms[0] == "RS256" and "PS256" in algorithms and "ES256" not in algorithms


@pytest.mark.parametrize(
    "pem",
    [
        "-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n",
        _pem(ed25519.Ed25519PrivateKey.generate()),  # no ES/RS/PS algorithm signs with it
    ],
)
def test_text_that_is_no_usable_private_key_is_refused_as_unreadable(pem: str) -> None:
    with pytest.raises(ConfigError) as refused:
        key_algorithms(pem)
    assert refused.value.details["oauth"] == "client-key-unreadable"
