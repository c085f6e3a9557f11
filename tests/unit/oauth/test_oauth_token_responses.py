"""Token responses read by the shared OAuth layer: the tokens, or a typed error naming the step and no secret."""

from __future__ import annotations

import json

import pytest

from workbench.core.auth_steps import AuthStage, FailureCode, StepLog
from workbench.core.errors import AuthRequiredError, OAuthRefusedError
from workbench.core.oauth.forms import ID_JAG_TOKEN_TYPE
from workbench.core.oauth.tokens import TokenSet, read_token_exchange_response, read_token_response
from workbench.core.wire.recorder import WireRecorder

URL = "https://as.example/token"
ACCESS = "at-very-secret-0042"
REFRESH = "rt-very-secret-0043"


def steps() -> StepLog:
    return StepLog("oauth-test", WireRecorder(), None)


def body(**fields: object) -> bytes:
    return json.dumps(fields).encode()


def test_a_bearer_token_response_becomes_a_token_set_with_its_absolute_expiry() -> None:
    tokens = read_token_response(
        200,
        body(access_token=ACCESS, token_type="bearer", expires_in=60, refresh_token=REFRESH, scope="a b"),
        now=100.0,
        token_url=URL,
    )
    assert tokens == TokenSet(ACCESS, 100.0, 160.0, REFRESH, "a b", "Bearer")
    assert tokens.valid(149.0) and not tokens.valid(151.0)
    assert ACCESS not in repr(tokens) and REFRESH not in repr(tokens)
    assert TokenSet.from_json(tokens.to_json()) == tokens


def test_a_missing_token_type_is_bearer_and_a_dpop_token_is_accepted_only_when_proofs_were_sent() -> None:
    assert read_token_response(200, body(access_token=ACCESS), now=0, token_url=URL).token_type == "Bearer"
    bound = read_token_response(200, body(access_token=ACCESS, token_type="DPoP"), now=0, token_url=URL, dpop=True)
    assert bound.dpop_bound and TokenSet.from_json(bound.to_json()) == bound
    with pytest.raises(OAuthRefusedError) as refused:
        read_token_response(200, body(access_token=ACCESS, token_type="DPoP"), now=0, token_url=URL)
    assert refused.value.details["oauth"] == "token-type-unsupported"


def test_a_stored_token_without_a_type_reads_as_bearer_and_garbage_reads_as_none() -> None:
    old = json.dumps({"access_token": ACCESS, "obtained_at": 1.0, "expires_at": None})
    assert TokenSet.from_json(old) == TokenSet(ACCESS, 1.0)
    assert TokenSet.from_json("not json") is None and TokenSet.from_json("{}") is None


@pytest.mark.parametrize(
    ("status", "content", "reason"),
    [
        (200, body(token_type="Bearer", expires_in=60), "token-response-invalid"),
        (200, body(access_token=42), "token-response-invalid"),
        (200, b"<html>hello</html>", "token-response-invalid"),
        (500, body(error="server_error"), "token-response-invalid"),
        (200, body(access_token=ACCESS, token_type="mac"), "token-type-unsupported"),
        (200, body(access_token=ACCESS, token_type="N_A"), "token-type-unsupported"),
    ],
)
def test_an_answer_that_is_no_usable_token_response_is_refused_at_the_step_and_names_no_token(
    status: int, content: bytes, reason: str
) -> None:
    log = steps()
    with pytest.raises(OAuthRefusedError) as refused:
        read_token_response(
            status, content, now=0, token_url=URL, steps=log, stage=AuthStage.REFRESH, details={"scheme": "s"}
        )
    error = refused.value
    assert (error.details["oauth"], error.details["step"], error.details["scheme"]) == (reason, "refresh", "s")
    assert error.details["http_status"] == status
    step = log.steps[-1]
    assert step.stage is AuthStage.REFRESH and step.failure is not None
    assert step.failure.code is FailureCode.INVALID_RESPONSE
    assert ACCESS not in str(error) + (error.hint or "") + step.detail + step.failure.reason


@pytest.mark.parametrize("status", [400, 401, 403])
def test_an_oauth_error_is_a_refusal_naming_its_code_and_never_the_body(status: int) -> None:
    log = steps()
    secret_echo = body(error="invalid_client", error_description=f"secret {ACCESS} was wrong")
    with pytest.raises(AuthRequiredError) as refused:
        read_token_response(status, secret_echo, now=0, token_url=URL, steps=log)
    error = refused.value
    assert type(error) is AuthRequiredError and error.code == "auth-required"
    assert (error.details["oauth"], error.details["oauth_error"], error.details["step"]) == (
        "token-refused",
        "invalid_client",
        "token",
    )
    assert ACCESS not in str(error) + log.steps[-1].detail
    assert log.steps[-1].failure is not None and log.steps[-1].failure.code is FailureCode.HTTP_ERROR


def test_an_error_code_with_control_characters_is_shown_on_one_line() -> None:
    with pytest.raises(AuthRequiredError) as refused:
        read_token_response(400, body(error="bad\nline\x1b[31m"), now=0, token_url=URL)
    assert "\n" not in refused.value.message and "\x1b" not in refused.value.message


def test_a_token_exchange_answer_gives_the_requested_token_or_refuses_at_the_token_step() -> None:
    issued = body(access_token="jag", issued_token_type=ID_JAG_TOKEN_TYPE, token_type="N_A")
    assert read_token_exchange_response(200, issued, requested_token_type=ID_JAG_TOKEN_TYPE) == "jag"
    for status, content in [
        (400, body(error="invalid_grant")),
        (200, body(issued_token_type=ID_JAG_TOKEN_TYPE)),
        (200, body(access_token="x", issued_token_type="urn:ietf:params:oauth:token-type:access_token")),
    ]:
        log = steps()
        with pytest.raises(OAuthRefusedError) as refused:
            read_token_exchange_response(status, content, requested_token_type=ID_JAG_TOKEN_TYPE, steps=log)
        assert refused.value.details == {"oauth": "token-exchange-refused", "step": "token"}
        assert log.steps[-1].status == "failed"
