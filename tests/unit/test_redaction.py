"""Redactor: credential headers, URL parameters, known and learned secret values."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from workbench.core.wire.redaction import Redactor, is_secret_header, is_secret_param


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("Authorization", "Bearer abc.def.ghi-123", "Bearer ***"),
        ("authorization", "Basic dXNlcjpwYXNzd29yZA==", "Basic ***"),
        ("Proxy-Authorization", "Digest username=x, response=abc", "Digest ***"),
        ("Authorization", "rawtokenwithoutscheme", "***"),
        ("Authorization", "Weird abc def", "***"),  # unknown scheme word: nothing kept
        ("Cookie", "sid=abcdef123456; theme=dark", "***"),
        ("Set-Cookie", "sid=abcdef123456; Path=/; HttpOnly", "***"),
        ("X-API-Key", "sk-live-1234567890", "***"),
        ("Api-Key", "k-1234567890", "***"),
        ("X-Goog-Api-Key", "AIzaSy-1234567890", "***"),
        ("X-ApiKey", "abcd1234efgh", "***"),
        ("X-Auth-Token", "tok-1234567890", "***"),
        ("X-Client-Secret", "shh-1234567890", "***"),
        ("X-Password", "hunter2hunter2", "***"),
        ("Ocp-Apim-Subscription-Key", "0123456789abcdef", "***"),
    ],
)
def test_each_credential_header_family_is_masked_keeping_only_a_known_scheme_word(
    name: str, value: str, expected: str
) -> None:
    assert Redactor().headers({name: value}) == {name: expected}


def test_ordinary_headers_pass_through_unchanged() -> None:
    headers = {
        "Content-Type": "application/json",
        "Mcp-Session-Id": "3f2a-session",
        "WWW-Authenticate": 'Bearer resource_metadata="https://h/.well-known/oauth-protected-resource"',
        "Accept": "application/json, text/event-stream",
    }
    assert Redactor().headers(headers) == headers
    assert not is_secret_header("Mcp-Session-Id")


def test_extra_header_names_are_masked_case_insensitively() -> None:
    redactor = Redactor(extra_header_names=["X-Tenant"])
    assert redactor.headers({"x-tenant": "acme-corp-1234"}) == {"x-tenant": "***"}


def test_header_pairs_with_repeated_names_are_joined_and_masked() -> None:
    pairs = [("Set-Cookie", "a=1234567890"), ("Set-Cookie", "b=0987654321"), ("Vary", "A"), ("Vary", "B")]
    assert Redactor().headers(pairs) == {"Set-Cookie": "***, ***", "Vary": "A, B"}


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://h/mcp?api_key=SECRET1234", "https://h/mcp?api_key=***"),
        ("https://h/x?access_token=SECRET1234&page=2", "https://h/x?access_token=***&page=2"),
        ("https://h/x?token=SECRET1234", "https://h/x?token=***"),
        ("https://h/x?apikey=SECRET1234&api-key=SECRET5678", "https://h/x?apikey=***&api-key=***"),
        ("https://h/cb?code=SECRET1234&state=xyz", "https://h/cb?code=***&state=xyz"),
        ("https://h/x?client_secret=SECRET1234&password=p4ssw0rd!", "https://h/x?client_secret=***&password=***"),
        ("https://h/x?API%5FKEY=SECRET1234", "https://h/x?API%5FKEY=***"),
        ("https://h/cb#access_token=SECRET1234&type=bearer", "https://h/cb#access_token=***&type=bearer"),
        ("https://user:SECRET1234@h:8443/p", "https://user:***@h:8443/p"),
        ("http://127.0.0.1:8000/mcp?debug=1&q=", "http://127.0.0.1:8000/mcp?debug=1&q="),
    ],
)
def test_url_credential_parameters_and_password_are_masked_and_layout_kept(url: str, expected: str) -> None:
    assert Redactor().url(url) == expected


def test_is_secret_param_matches_names_not_values() -> None:
    assert is_secret_param("refresh_token")
    assert is_secret_param("X-Amz-Signature")
    assert not is_secret_param("cursor")


def test_known_secret_values_are_replaced_in_text_headers_and_urls() -> None:
    secret = "sk-proj-0123456789"
    redactor = Redactor(secret_values=[secret])
    assert redactor.text(f'{{"key":"{secret}","again":"{secret}"}}') == '{"key":"***","again":"***"}'
    assert redactor.headers({"X-Custom": f"v={secret}"}) == {"X-Custom": "v=***"}
    assert redactor.url(f"https://h/{secret}/x?q={secret}") == "https://h/***/x?q=***"


def test_secret_values_are_also_found_json_escaped_and_url_encoded() -> None:
    secret = 'pa"ss/wörd\\42'
    redactor = Redactor()
    redactor.add_secret(secret)
    as_json = json.dumps({"v": secret})
    as_ascii_json = json.dumps({"v": secret}, ensure_ascii=True)
    as_url = "https://h/?v=" + quote(secret, safe="")
    for text in (as_json, as_ascii_json, json.dumps({"v": secret}, ensure_ascii=False), as_url):
        assert "***" in redactor.text(text)
        assert secret not in redactor.text(text)
    assert "w\\u00f6rd" not in redactor.text(as_ascii_json)


def test_values_shorter_than_four_characters_are_ignored() -> None:
    redactor = Redactor(secret_values=["abc", ""])
    assert not redactor.has_secrets
    assert redactor.text("abc abc") == "abc abc"


def test_a_longer_secret_containing_a_shorter_one_is_masked_whole() -> None:
    redactor = Redactor(secret_values=["abcd", "abcd-efgh-ijkl"])
    assert redactor.text("x abcd-efgh-ijkl y abcd") == "x *** y ***"


def test_credentials_seen_in_headers_and_urls_are_learned_and_masked_elsewhere() -> None:
    redactor = Redactor()
    redactor.headers({"Authorization": "Bearer learned-token-0001"})
    redactor.url("https://h/?api_key=learned-key-0002")
    echoed = "whoami: learned-token-0001 / learned-key-0002"
    assert redactor.text(echoed) == "whoami: *** / ***"


def test_learning_can_be_switched_off() -> None:
    redactor = Redactor(learn=False)
    redactor.headers({"Authorization": "Bearer learned-token-0001"})
    assert redactor.text("learned-token-0001") == "learned-token-0001"


def test_set_cookie_attributes_are_not_learned_as_secrets() -> None:
    redactor = Redactor()
    redactor.headers({"Set-Cookie": "sid=abcdef123456; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/"})
    assert redactor.text("Wed, 21 Oct 2026 07:28:00 GMT sid abcdef123456") == "Wed, 21 Oct 2026 07:28:00 GMT sid ***"


def test_form_bodies_and_oauth_token_responses_are_masked() -> None:
    redactor = Redactor()
    form = "grant_type=authorization_code&code=authcode-123456&code_verifier=verifier-123456&client_id=app"
    assert redactor.body(form, "application/x-www-form-urlencoded") == (
        "grant_type=authorization_code&code=***&code_verifier=***&client_id=app"
    )
    token_response = '{"access_token": "at-0123456789", "token_type": "Bearer", "refresh_token": "rt-0123456789"}'
    masked = redactor.body(token_response, "application/json")
    assert json.loads(masked) == {"access_token": "***", "token_type": "Bearer", "refresh_token": "***"}
    assert redactor.text("later: at-0123456789") == "later: ***"
