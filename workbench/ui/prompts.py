"""UserPrompts: the agent handlers (elicitation, sampling, input) that answer peers' requests with dialogs.

Requests may arrive from several connections at once; they are shown one dialog at a time, in arrival
order. Dialogs never block the loop (``asyncutil.open_dialog``), and when the awaiting task is cancelled
(the server cancelled its request, the connection closed) the dialog closes.

URL-mode elicitations answer ``accept`` as soon as the user opened the page (what MCP asks for); the
dialog then stays up, waiting for the server's ``notifications/elicitation/complete`` (from
``ctx.bridge.elicitation_completed``) without holding the queue.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDialog, QWidget

from workbench.core.agent_factory import AgentHandlers
from workbench.core.conversation import answer_text
from workbench.core.errors import SamplingRejectedError, WorkbenchError
from workbench.core.events import ElicitationCompleted
from workbench.core.handoff.policy import ApprovalDecision
from workbench.core.protocols.base import (
    ElicitationRequest,
    ElicitationResponse,
    InputRequest,
    InputResponse,
    SamplingRequest,
    SamplingResponse,
)
from workbench.ui.asyncutil import open_dialog
from workbench.ui.context import PanelContext
from workbench.ui.dialog_rules import present
from workbench.ui.dialogs.auth_required import AuthRequiredDialog
from workbench.ui.dialogs.elicitation_url import UrlElicitationDialog, UrlOpener
from workbench.ui.dialogs.handoff_approval import HandoffApprovalDialog, HandoffApprovalRequest
from workbench.ui.dialogs.sampling import SamplingDialog, SamplingRouter

if TYPE_CHECKING:
    from workbench.core.http.origins import OriginApproval
    from workbench.core.tool_approval import ToolCallRequest

T = TypeVar("T")


class UserPrompts(QObject):
    """Answers peers' requests with dialogs, one at a time.

    Signals:
        prompt_shown(QDialog): A dialog for a request just opened (tests fill it; the window may raise it).
        pending_changed(int): The number of requests waiting for the user changed.
        route_always_allowed(str, str): The user ticked "always allow" for this handoff route
            (source, target); later requests on it are approved without asking.
        request_answered(object, str, object): The user answered a peer's question in a dialog: the
            request object the handler got, the answer as text, and its data (a form's values or
            None). Sent for A2A input-required and MCP elicitation forms, never for credentials
            (auth-required) nor for a dismissed dialog.
        request_deferred(object, object): The user closed an A2A input-required dialog to answer later:
            the request, and what they had typed in it (a form's values or a data object; None).

    Args:
        ctx: The window's context (``bridge.elicitation_completed`` closes URL dialogs; routing errors
            go to ``errors``).
        parent_widget: Returns the widget dialogs are parented to (the main window), asked per dialog.
        opener: Opens URLs for URL-mode elicitations (default: the system browser).
        parent: QObject parent.
    """

    prompt_shown = Signal(object)  # QDialog
    pending_changed = Signal(int)
    route_always_allowed = Signal(str, str)
    request_answered = Signal(object, str, object)
    request_deferred = Signal(object, object)

    def __init__(
        self,
        ctx: PanelContext,
        parent_widget: Callable[[], QWidget | None],
        *,
        opener: UrlOpener | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._ctx = ctx
        self._parent_widget = parent_widget
        self._opener = opener
        self._lock = asyncio.Lock()
        self._pending = 0
        self._router: SamplingRouter | None = None
        self._waiting_url: set[UrlElicitationDialog] = set()
        self._allowed_routes: set[tuple[str, str]] = set()

    # ------------------------------------------------------------------ public API

    @property
    def pending_count(self) -> int:
        """Requests waiting for the user (the one shown included)."""
        return self._pending

    def handlers(self) -> AgentHandlers:
        """The handlers to give ``DefaultAgentFactory(handlers=...)``."""
        return AgentHandlers(
            elicitation=self.elicit,
            sampling=self.sample,
            input=self.answer_input,
            origin_approval=self.approve_origin,
        )

    def set_sampling_router(self, router: SamplingRouter | None) -> None:
        """Offer "Route to agent…" in sampling dialogs (``None`` hides it again)."""
        self._router = router

    async def elicit(self, request: ElicitationRequest) -> ElicitationResponse:
        """Answer an MCP elicitation with a form dialog or a URL dialog."""
        with self._queued():
            async with self._lock:
                if request.mode == "url":
                    return await self._elicit_url(request)
                from workbench.ui.dialogs.elicitation_form import ElicitationFormDialog

                dialog = ElicitationFormDialog(request, self._parent_widget())
                answer = await self._answer_of(dialog, dialog.response)
        if answer.action == "accept":
            content = answer.content or {}
            self.request_answered.emit(
                request, answer_text(content, request.requested_schema) if content else "(accepted)", content
            )
        else:
            self.request_answered.emit(request, "(declined)" if answer.action == "decline" else "(cancelled)", None)
        return answer

    async def sample(self, request: SamplingRequest) -> SamplingResponse:
        """Answer an MCP sampling request with what the user approves.

        Raises:
            SamplingRejectedError: The user rejected it (the peer gets an error response).
        """
        with self._queued():
            async with self._lock:
                dialog = SamplingDialog(
                    request, self._parent_widget(), router=self._router, drafters=self._drafters(request)
                )
                dialog.route_failed.connect(self._on_route_failed)
                answer = await self._answer_of(dialog, dialog.response)
        if answer is None:
            raise SamplingRejectedError(
                "User rejected sampling request", details={"agent": request.agent} if request.agent else None
            )
        return answer

    async def approve_sampling(self, request: SamplingRequest, draft: SamplingResponse) -> SamplingResponse | None:
        """Show a script's or model's draft reply in the sampling dialog: the reply approved (maybe edited), or None."""
        with self._queued():
            async with self._lock:
                dialog = SamplingDialog(
                    request, self._parent_widget(), router=self._router, draft=draft, drafters=self._drafters(request)
                )
                dialog.route_failed.connect(self._on_route_failed)
                return await self._answer_of(dialog, dialog.response)

    def _drafters(self, request: SamplingRequest) -> dict[str, SamplingRouter]:
        """The scripts and models that may draft this one reply (the per-request choice of responder)."""
        service = self._ctx.services.sampling
        if service is None:
            return {}
        try:
            names = service.drafters(request.agent)
        except WorkbenchError:
            return {}  # an unreadable models.json: no drafters offered (the responder dialog says why)

        def drafter(name: str) -> SamplingRouter:
            return lambda r: service.draft(name, r)

        return {name: drafter(name) for name in names}

    async def answer_input(self, request: InputRequest) -> InputResponse:
        """Answer an A2A ``input-required`` (question dialog) or ``auth-required`` (credential dialog).

        A dismissed dialog returns an empty ``InputResponse()``: the task stays waiting (deferred).
        """
        with self._queued():
            async with self._lock:
                if request.kind == "auth":
                    auth = AuthRequiredDialog(request, self._parent_widget())
                    answer = await self._answer_of(auth, auth.response)
                else:
                    from workbench.ui.dialogs.input_required import InputRequiredDialog

                    question = InputRequiredDialog(request, self._parent_widget())
                    draft: list[dict[str, Any] | None] = []
                    question.rejected.connect(lambda: draft.append(question.draft()))
                    answer = await self._answer_of(question, question.response)
                    if answer is None:
                        self.request_deferred.emit(request, draft[0] if draft else None)
        if answer is None:
            return InputResponse()
        if request.kind == "input" and not answer.cancel:
            if answer.data is not None:
                self.request_answered.emit(request, answer_text(answer.data, request.schema), answer.data)
            elif answer.text is not None:
                self.request_answered.emit(request, answer.text, None)
        return answer

    async def approve_origin(self, question: OriginApproval) -> bool:
        """Ask whether a profile's credentials may also go to ``question.origin``; a yes is saved in the profile."""
        from workbench.ui.dialogs.origin_approval import OriginApprovalDialog

        with self._queued():
            async with self._lock:
                dialog = OriginApprovalDialog(question, self._parent_widget())
                approved = await self._answer_of(dialog, dialog.approved)
        if approved and question.profile_id:
            try:
                self._ctx.services.profile_service.allow_origin(question.profile_id, question.origin)
            except WorkbenchError as exc:  # approved for this session; saving it failed
                self._ctx.errors.report(exc, "saving the approved origin in the profile")
        return approved

    async def approve_tool_call(self, request: ToolCallRequest) -> bool:
        """Ask whether a tool call may go out (``ToolCallGate``'s approver in the window): Call or Don't call."""
        from workbench.ui.dialogs.tool_approval import ToolApprovalDialog

        with self._queued():
            async with self._lock:
                dialog = ToolApprovalDialog(request, self._parent_widget())
                return await self._answer_of(dialog, dialog.approved)

    async def approve_handoff(self, request: HandoffApprovalRequest) -> bool:
        """Ask the user whether a handoff may go ahead (a route marked "always allow" is not asked again).

        ``request`` needs ``source``, ``target``, ``protocol``, ``kind``, ``summary`` and ``arguments`` or
        ``detail`` (the router's ``ApprovalRequest`` fits).
        """
        return (await self.decide_handoff(request)).approved

    async def decide_handoff(self, request: HandoffApprovalRequest) -> ApprovalDecision:
        """``approve_handoff`` answering the router's way: ``remember`` is set when "always allow" was ticked.

        Pass this as the router's approval handler so it turns "always" into the route's ``auto`` policy.
        """
        route = (str(request.source), str(request.target))
        if route in self._allowed_routes:
            return ApprovalDecision(True, remember=True)
        with self._queued():
            async with self._lock:
                if route in self._allowed_routes:  # allowed while this request waited its turn
                    return ApprovalDecision(True, remember=True)
                dialog = HandoffApprovalDialog(request, self._parent_widget())
                decision = await self._answer_of(dialog, dialog.decision)
        if decision.approved and decision.remember and route not in self._allowed_routes:
            self._allowed_routes.add(route)
            self.route_always_allowed.emit(*route)
        return decision

    def allowed_routes(self) -> frozenset[tuple[str, str]]:
        """Handoff routes (source, target) the user chose to always allow."""
        return frozenset(self._allowed_routes)

    def forget_allowed_routes(self) -> None:
        """Ask again for every handoff route."""
        self._allowed_routes.clear()

    # ------------------------------------------------------------------ internals

    @contextmanager
    def _queued(self) -> Iterator[None]:
        self._pending += 1
        self.pending_changed.emit(self._pending)
        try:
            yield
        finally:
            self._pending -= 1
            self.pending_changed.emit(self._pending)

    def _announce(self, dialog: QDialog) -> None:
        # Scheduled with call_soon from _show: runs after dialog.open(), before the user can act.
        if dialog.isVisible():
            self.prompt_shown.emit(dialog)

    async def _answer_of(self, dialog: QDialog, response: Callable[[], T]) -> T:
        """Show ``dialog`` (queued by the caller), read ``response()`` when it closes, then delete it."""
        try:
            await self._show(dialog)
            return response()
        finally:
            dialog.deleteLater()

    async def _show(self, dialog: QDialog) -> int:
        asyncio.get_running_loop().call_soon(self._announce, dialog)
        return await open_dialog(dialog)

    async def _elicit_url(self, request: ElicitationRequest) -> ElicitationResponse:
        dialog = UrlElicitationDialog(request, self._parent_widget(), opener=self._opener)
        loop = asyncio.get_running_loop()
        decided: asyncio.Future[ElicitationResponse] = loop.create_future()

        def on_decided(response: Any) -> None:
            if not decided.done():
                decided.set_result(response)

        def on_completed(event: ElicitationCompleted) -> None:
            if self._matches(request, event):
                dialog.mark_completed()

        def on_finished(_code: int) -> None:
            if dialog not in self._waiting_url:
                return  # already cleaned up (finished twice)
            self._waiting_url.discard(dialog)
            self._ctx.bridge.elicitation_completed.disconnect(on_completed)
            dialog.deleteLater()

        dialog.decided.connect(on_decided)
        # Connected before the answer goes out: the completion may arrive right after it.
        self._ctx.bridge.elicitation_completed.connect(on_completed)
        dialog.finished.connect(on_finished)
        self._waiting_url.add(dialog)  # keeps the waiting dialog (and its slots) alive after we return
        present(dialog)
        loop.call_soon(self._announce, dialog)
        try:
            return await decided
        except asyncio.CancelledError:
            if dialog.isVisible():
                dialog.reject()
            raise

    def _matches(self, request: ElicitationRequest, event: ElicitationCompleted) -> bool:
        if not request.elicitation_id or event.elicitation_id != request.elicitation_id:
            return False
        # Ids are chosen by each server: when the connection is known, the agent must match too.
        connection = self._ctx.services.connections.get(event.connection_id)
        agent = connection.agent if connection is not None else None
        return agent is None or not request.agent or agent.name == request.agent

    def _on_route_failed(self, error: BaseException) -> None:
        self._ctx.errors.report(error, "routing a sampling request to another agent", inline=True)  # the dialog says
