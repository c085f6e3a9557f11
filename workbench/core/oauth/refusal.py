"""A refused OAuth step: recorded as failed in the login's ``StepLog``, with the typed error that says why."""

from __future__ import annotations

from workbench.core.auth_steps import AuthFailure, AuthStage, FailureCode, StepLog
from workbench.core.errors import OAuthRefusedError

__all__ = ["refuse"]


def refuse(
    steps: StepLog | None,
    stage: AuthStage,
    reason: str,
    why: str,
    hint: str,
    *,
    code: FailureCode | None = None,
) -> OAuthRefusedError:
    """Record a failed ``stage`` in ``steps`` and return the error that says why (for the caller to raise).

    Args:
        steps: The login's step log (``None``: nothing is recorded).
        stage: The step that failed.
        reason: The reason code (``details["oauth"]`` of the error: ``assertion-audience`` …).
        why: What went wrong, one clause for people; never a secret.
        hint: What to change so the step passes.
        code: The failure's typed code for the Login view; given, the step carries an ``AuthFailure``
            with ``why`` and ``hint``, else only its one-line detail.

    Returns:
        An ``OAuthRefusedError`` with ``details`` ``oauth`` (``reason``) and ``step`` (the stage).
    """
    if steps is not None:
        failure = AuthFailure(code, why, hint) if code is not None else None
        steps.step(stage, "failed", f"{reason}: {why}", failure=failure)
    return OAuthRefusedError(
        f"The OAuth login stopped at the {stage.value} step: {why}.",
        hint=hint,
        details={"oauth": reason, "step": stage.value},
    )
