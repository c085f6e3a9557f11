"""DPoP proofs (RFC 9449) as a server checks them: header, claims, signature, ``ath``, nonces."""

from __future__ import annotations

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from workbench.core.errors import ConfigError
from workbench.core.http.dpop import DPoPKey, DPoPNonces, access_token_hash, nonce_challenge


def test_ath_is_the_base64url_sha256_of_the_token_as_in_rfc_9449_section_7_1() -> None:
    assert (
        access_token_hash("Kz~8mXK1EalYznwH-LC-1fBAo.4Ljp~zsPE_NeO.gxU")
        == "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo"
    )


def test_a_proof_is_a_dpop_jwt_signed_by_the_public_key_in_its_header_naming_method_url_token_and_nonce() -> None:
    key = DPoPKey.generate()
    proof = key.proof("post", "https://as.example/token?x=1#frag", access_token="tok", nonce="n-1", now=1_700_000_000)
    header = jwt.get_unverified_header(proof)
    assert (header["typ"], header["alg"]) == ("dpop+jwt", "ES256")
    assert "d" not in header["jwk"] and header["jwk"]["crv"] == "P-256"
    claims = jwt.decode(proof, jwt.PyJWK(header["jwk"]).key, algorithms=["ES256"])
    assert claims["htm"] == "POST" and claims["htu"] == "https://as.example/token"
    assert claims["iat"] == 1_700_000_000 and claims["nonce"] == "n-1" and claims["ath"] == access_token_hash("tok")
    assert key.proof("GET", "https://as.example/token") != key.proof("GET", "https://as.example/token")
    second = jwt.decode(key.proof("GET", "https://rs.example/mcp"), options={"verify_signature": False})
    assert second["jti"] != claims["jti"] and "ath" not in second and "nonce" not in second


def test_a_key_survives_its_pem_and_never_shows_the_private_half() -> None:
    key = DPoPKey.generate()
    again = DPoPKey.from_pem(key.to_pem())
    assert again.public_jwk == key.public_jwk and again.thumbprint() == key.thumbprint()
    assert "PRIVATE" not in repr(key) and key.to_pem().splitlines()[1] not in repr(key)


def test_a_key_that_is_not_p256_or_not_pem_is_a_config_error() -> None:
    rsa_pem = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    for pem in (rsa_pem, b"not a key"):
        with pytest.raises(ConfigError) as refused:
            DPoPKey.from_pem(pem)
        assert refused.value.details["oauth"] == "dpop-key"


def test_nonce_challenges_of_an_authorization_server_and_of_a_resource_server_are_recognised() -> None:
    assert nonce_challenge(400, {"dpop-nonce": "n"}, b'{"error": "use_dpop_nonce"}')
    assert nonce_challenge(401, {"dpop-nonce": "n", "www-authenticate": 'DPoP error="use_dpop_nonce"'}, b"")
    assert not nonce_challenge(400, {"dpop-nonce": "n"}, b'{"error": "invalid_grant"}')
    assert not nonce_challenge(400, {}, b'{"error": "use_dpop_nonce"}')
    assert not nonce_challenge(401, {"dpop-nonce": "n", "www-authenticate": 'DPoP error="invalid_token"'}, b"")
    nonces = DPoPNonces()
    assert nonces.learn("https://as.example/token", {"dpop-nonce": "n-2"}) == "n-2"
    assert nonces.get("https://as.example:443/other") == "n-2" and nonces.get("https://rs.example/mcp") is None
