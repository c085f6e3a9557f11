"""The events that end or pause a turn (``Completed``, ``Failed``, ``InputRequired``, ``AuthRequired``); credentials.

A task waiting in auth-required, or an HTTP 401/403, asks the input handler: when the card declares
its schemes the request carries the ``CredentialNeed``s and the answer is stored for them (in the
credential store, or in the session's memory without one) and sent where the schemes say: an API
key as its header, query parameter or cookie. Otherwise the answer's text is a bearer token. Credentials travel in
headers, never in a message body.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from a2a.types import Message

from workbench.core.errors import AuthRequiredError, WorkbenchError
from workbench.core.protocols.a2a._session import Session
from workbench.core.protocols.a2a.convert import build_message
from workbench.core.protocols.a2a.reducer import TaskView
from workbench.core.protocols.a2a.security import CredentialNeed, required_credentials
from workbench.core.protocols.a2a.translate import PROTOCOL, input_request, result_from_message, result_from_view
from workbench.core.protocols.base import (
    AgentEvent,
    AuthRequired,
    Completed,
    Failed,
    InputRequest,
    InputRequired,
    InputResponse,
)

AUTH_RESUME_TEXT = "Credential provided."
"""Text of the message that resumes an auth-required task after a credential was supplied."""


def _needs_data(needs: list[CredentialNeed]) -> dict[str, Any]:
    return {"credential_needs": [n.to_dict() for n in needs], "need": needs[0].to_dict()}


class TurnEvents:
    """Builds the events of one agent's turns and asks for credentials.

    Args:
        session: The agent's session (its name, options, card, security schemes and bearer token).
    """

    def __init__(self, session: Session) -> None:
        self._session = session

    def common(self, task_id: str | None, context_id: str | None, raw: Any = None) -> dict[str, Any]:
        """The fields every event of this agent carries."""
        return {
            "agent": self._session.name,
            "protocol": PROTOCOL,
            "task_id": task_id,
            "context_id": context_id,
            "raw": raw,
        }

    def completed(self, view: TaskView) -> Completed:
        """``Completed`` with the task's result as it stands."""
        return Completed(
            result=result_from_view(view, self._session.data_order), **self.common(view.task_id, view.context_id)
        )

    def replied(self, reply: Message) -> Completed:
        """``Completed`` with a message-only reply (no task) as the result."""
        ids = reply.task_id or None, reply.context_id or None
        return Completed(result=result_from_message(reply, self._session.data_order), **self.common(*ids))

    def failed(self, error: WorkbenchError, task_id: str | None = None, context_id: str | None = None) -> Failed:
        """``Failed`` with ``error``; an auth error also says which credentials the card asks for."""
        if (
            isinstance(error, AuthRequiredError)
            and "credential_needs" not in error.details
            and (needs := self.credential_needs(None, error))
        ):
            # Say what the card asks for, so the user (or a later prompt) knows which fields to fill.
            error.details["credential_needs"] = [n.to_dict() for n in needs]
            error.hint = "store the credential the agent's card names: " + "; ".join(n.summary() for n in needs)
        return Failed(error=error, message=error.message, **self.common(task_id, context_id))

    def paused(self, view: TaskView, skill: str | None = None) -> InputRequired | AuthRequired:
        """The event for a task waiting in ``input-required`` / ``auth-required``: the agent's question."""
        request = input_request(view, agent=self._session.name, order=self._session.data_order)
        common = self.common(view.task_id, view.context_id, view.status_message)
        if request.kind == "auth":
            if needs := self.credential_needs(skill):
                # What the card says to supply, next to whatever the agent attached itself.
                extra = {"reason": "auth-required", **_needs_data(needs)}
                data = {**request.data, **extra} if isinstance(request.data, dict) else extra
                if request.data is not None and not isinstance(request.data, dict):
                    data["agent_data"] = request.data
                request = replace(request, data=data)
            return AuthRequired(request=request, **common)
        return InputRequired(request=request, **common)

    def credential_needs(self, skill: str | None, error: AuthRequiredError | None = None) -> list[CredentialNeed]:
        """The needs to ask the user for (those the card requires; the refusing scheme first)."""
        security, card = self._session.security, self._session.card
        if card is None:
            return []
        alternatives = security.alternatives(skill)
        scheme = error.details.get("scheme") if error is not None else None
        if scheme:  # an authorization server refused this scheme's client credentials
            for alt in alternatives:
                if any(n.scheme == scheme for n in alt.needs):
                    return sorted(alt.needs, key=lambda n: n.scheme != scheme)
        return [n for n in required_credentials(card, skill) if n.supported]

    async def ask_credential(
        self,
        error: AuthRequiredError,
        task_id: str | None,
        context_id: str | None,
        sink: list[AgentEvent],
        skill: str | None = None,
    ) -> bool:
        """Ask the input handler for a credential after an HTTP 401/403; True if one was given.

        The ``AuthRequired`` event asked with is appended to ``sink``.
        """
        handler = self._session.config.input_handler
        assert handler is not None
        needs = self.credential_needs(skill, error)
        data: dict[str, Any] = {
            "reason": "http",
            "http_status": error.details.get("http_status"),
            "url": error.details.get("url"),
        }
        if "oauth_error" in error.details:
            data["oauth_error"] = error.details["oauth_error"]
        if needs:
            data.update(_needs_data(needs))
        request = InputRequest(
            kind="auth",
            text=error.message,
            task_id=task_id or "",
            context_id=context_id or "",
            data=data,
            agent=self._session.name,
        )
        sink.append(AuthRequired(request=request, **self.common(task_id, context_id)))
        answer = await handler(request)
        if answer.cancel:
            return False
        if needs:
            return await self._session.security.store_answer(needs, answer) > 0
        if not answer.text:
            return False
        self._session.set_bearer_token(answer.text)
        return True

    async def answer_message(self, request: InputRequest, answer: InputResponse, skill: str | None = None) -> Message:
        """The message continuing a waiting task with the user's answer (both ids set)."""
        if request.kind == "auth":
            # The credential travels in headers (as the card's schemes say), never in the message body.
            needs = self.credential_needs(skill)
            if needs:
                await self._session.security.store_answer(needs, answer)
                prompt = InputResponse(text=AUTH_RESUME_TEXT)
            else:
                if answer.text:
                    self._session.set_bearer_token(answer.text)
                prompt = InputResponse(text=AUTH_RESUME_TEXT, data=answer.data)
            return build_message(prompt, task_id=request.task_id, context_id=request.context_id)
        return build_message(answer, task_id=request.task_id, context_id=request.context_id)
