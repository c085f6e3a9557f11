"""Composition root: QApplication + qasync loop + core services + MainWindow (+ the demo agents ui/demo_session shows).

``run_gui`` is what ``workbench`` and ``workbench demo`` call. It shows the start-up frame
(``ui.startup``) before anything of the core or the panels is imported, then builds the services and
the main window in its place. Everything runs on the Qt main thread under qasync; the window's async
shutdown (every connection closed) ends the loop.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio

    from PySide6.QtCore import QUrl
    from PySide6.QtWidgets import QApplication

    from workbench.core.agent_factory import AgentFactory
    from workbench.core.credentials import CredentialStore
    from workbench.core.http.origins import OriginApproval
    from workbench.core.protocols.base import (
        ElicitationRequest,
        ElicitationResponse,
        InputRequest,
        InputResponse,
        SamplingRequest,
        SamplingResponse,
    )
    from workbench.ui.context import PanelContext
    from workbench.ui.mainwindow import MainWindow
    from workbench.ui.startup import StartupWindow

log = logging.getLogger(__name__)

FIRST_PAINT_S = 0.05
"""How long the window gets to paint itself before the demo agents are imported and started."""

APP_NAME = "Agent Workbench"
ORG_NAME = "AgentWorkbench"


@dataclass
class GuiOptions:
    """How to start the window.

    Attributes:
        demo: Start the bundled demo agents and connect to them.
        scenario: Run a bundled scenario in the window (``handoff``) instead of the plain demo.
        smoke_test: Print how long the window took to show (the start-up frame) and to be ready (the
            main window in its place), then exit.
        screenshot: Save a PNG of the window once it is ready (and the demo connected), then exit.
        config_dir: Where profiles and window settings live (default: the platform config dir).
        ready_hook: Called with the window once it is ready (tests, screenshot tours).
    """

    demo: bool = False
    scenario: str | None = None
    smoke_test: bool = False
    screenshot: str | None = None
    config_dir: str | None = None
    ready_hook: Callable[[MainWindow], Awaitable[None]] | None = None
    started_at: float = field(default_factory=time.perf_counter)


class _LateHandlers:
    """Agent handlers whose target (the window's ``UserPrompts``) exists only after the window."""

    def __init__(self) -> None:
        self.target: object | None = None

    async def elicit(self, request: ElicitationRequest) -> ElicitationResponse:
        if self.target is None:
            from workbench.core.protocols.base import ElicitationResponse

            return ElicitationResponse(action="cancel")
        return await self.target.elicit(request)  # type: ignore[attr-defined,no-any-return]

    async def sample(self, request: SamplingRequest) -> SamplingResponse:
        if self.target is None:
            raise RuntimeError("the window is not ready to answer sampling requests")
        return await self.target.sample(request)  # type: ignore[attr-defined,no-any-return]

    async def approve_sampling(self, request: SamplingRequest, draft: SamplingResponse) -> SamplingResponse | None:
        if self.target is None:
            return None
        return await self.target.approve_sampling(request, draft)  # type: ignore[attr-defined,no-any-return]

    async def answer_input(self, request: InputRequest) -> InputResponse:
        if self.target is None:
            from workbench.core.protocols.base import InputResponse

            return InputResponse(cancel=True)
        return await self.target.answer_input(request)  # type: ignore[attr-defined,no-any-return]

    async def approve_origin(self, question: OriginApproval) -> bool:
        if self.target is None:
            return False
        return await self.target.approve_origin(question)  # type: ignore[attr-defined,no-any-return]


def run_gui(options: GuiOptions | None = None) -> int:
    """Open the window and run until it closes; returns the process exit code.

    The start-up frame is shown before the core and the panels are imported (they take most of the
    start), so a window is on screen about as soon as a bare Qt program shows one.
    """
    from PySide6.QtWidgets import QApplication

    from workbench.core.config_dir import WINDOW_SETTINGS_FILE, resolve_config_dir
    from workbench.ui.startup import StartupWindow

    opts = options or GuiOptions()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(ORG_NAME)
    app.setApplicationDisplayName(APP_NAME)
    app.setDesktopFileName("workbench")
    app.setQuitOnLastWindowClosed(False)  # asyncio ends the run, not Qt (qt-async §2.2)
    _apply_look(app)
    startup = StartupWindow(resolve_config_dir(opts.config_dir) / WINDOW_SETTINGS_FILE)
    startup.show_painted()
    if opts.smoke_test:
        print(f"window shown in {_ms_since(opts.started_at):.0f} ms", flush=True)

    import asyncio

    from workbench.ui.asyncutil import AppEventLoop

    return asyncio.run(run_window(app, opts, startup), loop_factory=lambda: AppEventLoop(app))


def _ms_since(started_at: float) -> float:
    return (time.perf_counter() - started_at) * 1000


def _apply_look(app: QApplication) -> None:
    from workbench.ui.theme import app_icon, apply_theme

    apply_theme(app)
    app.setWindowIcon(app_icon())


async def _open_in_system_browser(url: str) -> None:
    """Open an OAuth authorization URL in the user's browser (the login the user started)."""
    from PySide6.QtCore import QUrl
    from PySide6.QtGui import QDesktopServices

    QDesktopServices.openUrl(QUrl(url))


@dataclass
class Workbench:
    """The window and what it was built from (what ``build_workbench`` returns)."""

    ctx: PanelContext
    window: MainWindow


def build_workbench(
    config_dir: str | os.PathLike[str] | None = None,
    *,
    url_opener: Callable[[QUrl], bool] | None = None,
    credentials: CredentialStore | None = None,
    agent_factory: Callable[..., AgentFactory] | None = None,
) -> Workbench:
    """Build the core services, the panel context and the main window (not shown yet).

    Must run with the qasync loop current (the window's panels start tasks on it). Secrets come from
    ``credentials`` (default: the OS keyring, refused with a clear error when none is secure).
    ``agent_factory`` (default: ``DefaultAgentFactory``) is called with ``DefaultAgentFactory``'s
    keyword arguments (the window's handlers, the secret lookup, the credential store, the OAuth
    opener) and builds each profile's agent; a test may serve a server in process behind its profile
    this way.
    """
    from PySide6.QtCore import QSettings

    from workbench.core.agent_factory import AgentHandlers, DefaultAgentFactory
    from workbench.core.config_dir import WINDOW_SETTINGS_FILE
    from workbench.core.connections import ConnectionManager
    from workbench.core.credentials import KeyringCredentialStore
    from workbench.core.events import EventBus
    from workbench.core.profiles.store import ProfileStore
    from workbench.core.sampling.endpoints import ModelEndpointStore
    from workbench.core.sampling.service import SamplingService
    from workbench.core.wire.recorder import WireRecorder
    from workbench.ui.apps.view import engine_refusal
    from workbench.ui.bridge import CoreBridge
    from workbench.ui.context import PanelContext
    from workbench.ui.errors import ErrorPresenter
    from workbench.ui.mainwindow import MainWindow
    from workbench.ui.prompts import UserPrompts
    from workbench.ui.selection import ConnectionSelection
    from workbench.ui.services import Services
    from workbench.ui.untrusted import LinkGate

    bus = EventBus()
    wire = WireRecorder()
    late = _LateHandlers()
    credentials = credentials or KeyringCredentialStore()
    # Each connection's sampling goes to its chosen responder: the dialog (a person), a script or a model.
    sampling = SamplingService(
        late.sample,
        ModelEndpointStore(config_dir, credentials),
        approver=late.approve_sampling,
        bus=bus,
        config_dir=config_dir,
        wire=wire,  # a model's HTTP exchanges are records of the connection it answers
    )
    handlers = AgentHandlers(
        elicitation=late.elicit,
        sampling=sampling,
        input=late.answer_input,
        origin_approval=late.approve_origin,
        renders_apps=engine_refusal() is None,  # MCP Apps advertised only where the window can show them
        edits_roots=True,  # the Roots editor changes them while connected
    )
    factory = (agent_factory or DefaultAgentFactory)(
        handlers=handlers,
        resolve_secret=credentials.resolve,
        credentials=credentials,  # OAuth tokens (MCP) and A2A security-scheme credentials
        oauth_opener=_open_in_system_browser,
    )
    manager = ConnectionManager(bus, wire=wire, factory=factory)
    store = ProfileStore(config_dir)
    services = Services(
        bus=bus, wire=wire, connections=manager, profiles=store, credentials=credentials, sampling=sampling
    )
    ctx = PanelContext(
        services=services,
        bridge=CoreBridge(bus),
        errors=ErrorPresenter(),
        selection=ConnectionSelection(),
        links=LinkGate(),
    )
    settings = QSettings(str(Path(store.path).parent / WINDOW_SETTINGS_FILE), QSettings.Format.IniFormat)
    holder: list[MainWindow] = []
    prompts = UserPrompts(ctx, lambda: holder[0] if holder else None)
    late.target = prompts
    extra = {"url_opener": url_opener} if url_opener is not None else {}
    window = MainWindow(ctx, prompts, settings, **extra)
    holder.append(window)
    return Workbench(ctx=ctx, window=window)


async def run_window(app: QApplication, opts: GuiOptions, startup: StartupWindow | None = None) -> int:
    """Build services and the window, run until the window has shut down; returns the exit code.

    The main window takes the place of ``startup`` (the frame ``run_gui`` showed first), if given.
    """
    import asyncio

    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()
    async with contextlib.AsyncExitStack() as stack:
        window = build_workbench(opts.config_dir).window
        from workbench.ui.help import file_log, log_folder

        # The log the Help menu's "Open log folder" shows (peer text inert, secrets masked).
        stack.enter_context(file_log(log_folder(Path(window.ctx.services.profiles.path).parent)))

        def finished() -> None:
            if not done.done():
                done.set_result(None)

        window.shutdown_finished.connect(finished)
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, window.close)
        window.show()
        if startup is not None:
            startup.close()
            startup.deleteLater()
        window.restore_selection()
        if opts.smoke_test:
            print(f"window ready in {_ms_since(opts.started_at):.0f} ms", flush=True)
            window.close()
        else:
            # The demo agents (and with them both protocol SDKs, ~1 s of imports) come after the first
            # paint, so the window is on screen while they load; they stop after it has shut down.
            await asyncio.sleep(FIRST_PAINT_S)
            # The composition root serves them; the UI gets profiles and a router factory (no SDK in workbench.ui).
            from workbench.ui.demo_session import connect_demo, show_port_fallbacks

            if opts.demo or opts.scenario == "handoff":  # the handoff view and the View menu offer the scenario
                window.offer_handoff_scenario(functools.partial(start_handoff_scenario, window, stack))
            if opts.scenario == "handoff":
                window.run_handoff_scenario()
            elif opts.demo:
                from workbench.demo.launcher import run_demo
                from workbench.demo.profiles import demo_profiles

                demo_agents = await stack.enter_async_context(run_demo())
                await connect_demo(window, demo_profiles(demo_agents))
                # a saved demo connection to the usual port will not find such an agent this time
                show_port_fallbacks(window, [(a.name, a.fallback_note) for a in demo_agents if a.fell_back])
            if opts.ready_hook is not None:  # it may await window.scenario_task (the screenshot tour)
                await opts.ready_hook(window)
            if opts.screenshot:
                await asyncio.sleep(0.3)  # let the last repaints land before grabbing pixels
                window.grab().save(opts.screenshot)
                print(f"screenshot saved to {opts.screenshot}", flush=True)
                window.close()
        await done
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
    return 0


def start_handoff_scenario(window: MainWindow, stack: contextlib.AsyncExitStack) -> asyncio.Future[None]:
    """Serve the handoff scenario's agents and run the scenario in ``window``; the future ends with the run.

    The agents serve on in the same task until the window closes (``stack`` cancels it), so their
    connections stay inspectable after the run; a failure to serve or run them is reported.
    """
    import asyncio

    from workbench.ui.asyncutil import spawn

    finished: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    task = spawn(_handoff_session(window, finished), doing="running the handoff scenario")
    stack.push_async_callback(_cancel_and_wait, task)
    task.add_done_callback(lambda _task: None if finished.done() else finished.set_result(None))
    return finished


async def _handoff_session(window: MainWindow, finished: asyncio.Future[None]) -> None:
    """The scenario's agents served in this task (entered and left by it), the run, then serving on."""
    import asyncio

    from workbench.demo.scenarios.handoff import build_router, run_scenario, serve_handoff_agents
    from workbench.ui.demo_session import run_handoff_in_window

    async with serve_handoff_agents() as scenario:
        await run_handoff_in_window(
            window,
            functools.partial(build_router, scenario),
            functools.partial(run_scenario, question=scenario.question),
        )
        finished.set_result(None)
        await asyncio.Event().wait()  # until the window closes: the agents' connections stay inspectable


async def _cancel_and_wait(task: asyncio.Task[None]) -> None:
    task.cancel()
    with contextlib.suppress(BaseException):
        await task
