"""Walk a new user's journeys through the real window and photograph each step (Xvfb + openbox).

    .venv/bin/python tools/screenshots.py [OUT]          # every screen and palette (needs Xvfb, openbox)
    .venv/bin/python tools/screenshots.py OUT --only 1366x768 --theme dark
    .venv/bin/python tools/screenshots.py OUT --only 1366x768@2x --steps 01,05   # HiDPI, two steps

For each screen (1366×768, a laptop; 1920×1080; 2560×1440; 1366×768@2x, a HiDPI laptop: a 2732×1536
X screen with QT_SCALE_FACTOR=2) and palette (light, dark) it starts its own X
server with a window manager (without one, focus, tooltips and minimum sizes behave differently),
then runs the journeys in a child process on that display: the demo's first screen, a tool called
through its form, an elicitation form, an A2A chat with its input-required form, an MCP server's
markdown answer in its chat, the new stdio
connection dialog, the error banner, an error of a connection not selected (its sidebar row), and
the handoff scenario. Each step is the whole X screen
(``OUT/<size>-<palette>/NN-step.png``) so dialogs and what is cut off by the screen edge are in the
picture. The two big screens keep a few steps (``BIG_SCREEN_STEPS``; ``--steps`` picks others). The
README's pictures are copied from the 1920×1080 light run (dialogs from 1366×768).

Debian packages: xvfb, openbox, imagemagick, and the xcb libraries the Qt xcb plugin loads:
libxcb-cursor0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 libxcb-randr0 libxcb-render-util0
libxcb-shape0 libxcb-xkb1 libxkbcommon-x11-0.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

BIG_SCREEN_STEPS = ("01", "02", "04", "05", "05b")
"""Steps kept on the 2560×1440 and HiDPI screens: the start, a tool call, a form dialog, the chats."""


@dataclass(frozen=True)
class Screen:
    """An X screen to shoot on: its size in device pixels, Qt's scale factor, the steps kept by default."""

    size: str
    scale: int = 1
    steps: tuple[str, ...] = ()  # empty: every step


SCREENS = {
    "1366x768": Screen("1366x768"),
    "1920x1080": Screen("1920x1080"),
    "2560x1440": Screen("2560x1440", steps=BIG_SCREEN_STEPS),
    "1366x768@2x": Screen("2732x1536", scale=2, steps=BIG_SCREEN_STEPS),
}
"""Screens by name (the name is the logical size; ``@2x``: HiDPI at scale 2)."""
SIZES = tuple(SCREENS)
THEMES = ("light", "dark")
WAIT = 30.0
REPO = str(Path(__file__).resolve().parents[1])
README_SHOTS = {
    # README name: (run, step)
    "window-mcp-tool-call.png": ("1920x1080-light", "02-tool-call.png"),
    "dialog-elicitation.png": ("1366x768-light", "03-elicitation.png"),
    "dialog-input-required.png": ("1366x768-light", "04-input-required.png"),
    "window-a2a-chat.png": ("1920x1080-light", "05-a2a-chat.png"),
    "window-handoff.png": ("1920x1080-light", "10-handoff.png"),
    "dialog-handoff-approval.png": ("1366x768-light", "08-handoff-approval.png"),
    "handoff-waiting-for-user.png": ("1366x768-light", "09-handoff-waiting-for-user.png"),
    "window-mcp-app.png": ("1920x1080-light", "10b-mcp-app.png"),
    "window-sampling-model.png": ("1920x1080-light", "10c-sampling-by-a-model.png"),
    "window-tasks.png": ("1920x1080-light", "11-tasks.png"),
    "login-steps.png": ("1920x1080-light", "12-login-steps.png"),
    "login-failed-step.png": ("1366x768-light", "13-login-failed-step.png"),
}


# --------------------------------------------------------------------------- the driver (no Qt here)


@contextlib.contextmanager
def x_display(size: str) -> Iterator[str]:
    """An Xvfb screen of ``size`` with openbox on it; yields the DISPLAY value."""
    for number in range(91, 140):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(f"/tmp/.X{number}-lock").exists():
            break
    display = f":{number}"
    xvfb = subprocess.Popen(
        ["Xvfb", display, "-screen", "0", f"{size}x24", "-nolisten", "tcp"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wm: subprocess.Popen[bytes] | None = None
    try:
        deadline = time.monotonic() + 10
        while not Path(f"/tmp/.X11-unix/X{number}").exists():
            if time.monotonic() > deadline or xvfb.poll() is not None:
                raise RuntimeError(f"Xvfb did not start on {display}")
            time.sleep(0.05)
        wm = subprocess.Popen(
            ["openbox"], env={**os.environ, "DISPLAY": display}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        time.sleep(0.5)  # openbox takes over the screen before the first window maps
        yield display
    finally:
        for proc in (wm, xvfb):
            if proc is not None:
                proc.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(5)


def drive(out: Path, sizes: tuple[str, ...], themes: tuple[str, ...], steps: tuple[str, ...] = ()) -> int:
    """Run the journeys once per screen and palette, each in a child process on its own X screen.

    Args:
        out: Where the ``<screen>-<palette>`` folders go.
        sizes: Names of ``SCREENS``.
        themes: Palettes.
        steps: Step numbers to keep (``("01", "05")``); empty: each screen's default.
    """
    for tool in ("Xvfb", "openbox"):
        if shutil.which(tool) is None:
            print(
                f"{tool} is not installed (apt-get install xvfb openbox, and the xcb libraries this module's "
                "docstring lists)",
                file=sys.stderr,
            )
            return 2
    failed = 0
    for size in sizes:
        screen = SCREENS[size]
        keep = steps or screen.steps
        for theme in themes:
            folder = out / f"{size}-{theme}"
            folder.mkdir(parents=True, exist_ok=True)
            with x_display(screen.size) as display, tempfile.TemporaryDirectory() as scratch:
                env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb", **throwaway_keyring(scratch)}
                if screen.scale != 1:
                    env["QT_SCALE_FACTOR"] = str(screen.scale)
                args = [sys.executable, __file__, str(folder), "--journeys", "--theme", theme]
                if keep:
                    args += ["--steps", ",".join(keep)]
                code = subprocess.run(args, env=env, timeout=600, check=False).returncode
            print(f"{size} {theme}: {'ok' if code == 0 else f'failed ({code})'}", flush=True)
            failed += code != 0
    if not failed and not steps and "1920x1080" in sizes and "1366x768" in sizes and "light" in themes:
        for name, (run, step) in README_SHOTS.items():
            shutil.copyfile(out / run / step, out / name)
    return 1 if failed else 0


def throwaway_keyring(folder: str) -> dict[str, str]:
    """Environment for a keyring in a file of ``folder`` (the tests' backend): the logins photographed store
    their tokens there, never in the keyring of the person running this. As root (CI, these machines) the
    web engine's sandbox is turned off for the MCP App step, as the tests do; the window never does it."""
    path = os.pathsep.join(p for p in (REPO, os.environ.get("PYTHONPATH", "")) if p)
    sandbox = {"QTWEBENGINE_DISABLE_SANDBOX": "1"} if os.geteuid() == 0 else {}  # Chromium refuses root
    return {
        **sandbox,
        "PYTHON_KEYRING_BACKEND": "tests.support.keyrings.FileTestKeyring",
        "WORKBENCH_TEST_KEYRING": os.path.join(folder, "keyring.json"),
        "PYTHONPATH": path,
    }


# --------------------------------------------------------------------------- the journeys (in the child)


async def settle() -> None:
    """Let queued repaints land (a screenshot tool, not a test: a short pause is fine here)."""
    await asyncio.sleep(0.7)


class Camera:
    """Saves the whole X screen as ``OUT/NN-name.png`` (only the steps in ``keep``, when given)."""

    def __init__(self, out: Path, keep: tuple[str, ...] = ()) -> None:
        self.out = out
        self.keep = keep

    def wants(self, name: str) -> bool:
        """Whether step ``name`` (``NN-…``) is photographed."""
        return not self.keep or name.split("-", 1)[0] in self.keep

    def shot(self, name: str) -> None:
        from PySide6.QtGui import QGuiApplication

        if not self.wants(name):
            return
        path = self.out / name
        QGuiApplication.primaryScreen().grabWindow(0).save(str(path))
        print(f"saved {path}", flush=True)


async def demo_journeys(window: Any, camera: Camera) -> None:
    """Start, a tool through its form, an elicitation, an A2A chat, a new stdio connection, an error."""
    from workbench.ui.asyncutil import wait_signal

    ctx = window.ctx
    # 1. what the demo opens on
    ctx.selection.select("demo-mcp-stdio")
    await settle()
    camera.shot("01-start.png")

    # 2. MCP over stdio: a tool called through its form, and its result
    inspector = window.inspector.inspector("mcp")
    inspector.tabs.setCurrentWidget(inspector.tools)
    assert inspector.tools.select_tool("plan_trip")
    call = inspector.tools.detail.call
    finished = asyncio.ensure_future(wait_signal(inspector.vm.calls.finished, WAIT))
    call.form.set_value(
        {
            "destination": "Lisbon",
            "dates": {"start": "2026-12-04", "end": "2026-12-06"},
            "travellers": [{"name": "Ada Lovelace", "age": 36, "email": "ada@example.com"}],
            "cabin": "business",
            "budget_eur": 1800,
        }
    )
    call.call_button.click()
    await finished
    await settle()
    camera.shot("02-tool-call.png")

    # 3. an MCP elicitation answered in its form dialog
    shown = asyncio.ensure_future(wait_signal(window.prompts.prompt_shown, WAIT))
    assert inspector.tools.select_tool("book_table")
    finished = asyncio.ensure_future(wait_signal(inspector.vm.calls.finished, WAIT))
    inspector.tools.detail.call.call_button.click()
    (dialog,) = await shown
    dialog.form.set_value({"name": "Ada", "email": "ada@example.com", "party_size": 2})
    await settle()
    camera.shot("03-elicitation.png")
    dialog.accept_button.click()
    await finished

    # 4-5. A2A: the travel planner streams, asks for the trip details in a form, then answers
    ctx.selection.select("demo-travel")
    await settle()
    chat = window.chat
    shown = asyncio.ensure_future(wait_signal(window.prompts.prompt_shown, WAIT))
    turn = asyncio.ensure_future(wait_signal(chat.viewmodel.turn_finished, WAIT))
    chat.input.setPlainText("Plan a weekend in Lisbon for two")
    chat.send_button.click()
    (dialog,) = await shown
    dialog.form.set_value(
        {"departure_date": "2026-12-04", "return_date": "2026-12-06", "travellers": 2, "cabin_class": "business"}
    )
    await settle()
    camera.shot("04-input-required.png")
    dialog.send_button.click()
    await turn
    await settle()
    camera.shot("05-a2a-chat.png")

    # 5b. the MCP demo agent's markdown answer (headings of three levels) in the server's chat tab
    ctx.selection.select("demo-mcp-stdio")
    await settle()
    window.focus_chat()
    turn = asyncio.ensure_future(wait_signal(chat.viewmodel.turn_finished, WAIT))
    chat.input.setPlainText("help")
    chat.send_button.click()
    await turn
    await settle()
    camera.shot("05b-markdown-reply.png")

    # 6. a new stdio connection, as a user types it
    opened = asyncio.ensure_future(wait_signal(window.sidebar.dialog_opened, WAIT))
    adding = window.sidebar.add_profile()
    (dialog,) = await opened
    dialog.set_kind("mcp-stdio")
    dialog.name_edit.setText("My server")
    dialog.command_edit.setText("npx")
    dialog.args_edit.setPlainText("-y @modelcontextprotocol/server-everything")
    await settle()
    camera.shot("06-new-stdio-connection.png")
    dialog.reject()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(adding, WAIT)

    # 7. a connection that fails: the error banner and the workspace say what failed and why
    from workbench.core.profiles import MCPStdioProfile

    broken = MCPStdioProfile(id="broken", name="Broken server", command="/nonexistent/mcp-server")
    reported = asyncio.ensure_future(wait_signal(ctx.errors.error_reported, WAIT))
    task = window.sidebar.add_transient(broken, persist=False)
    ctx.selection.select("broken")
    with contextlib.suppress(Exception):
        if task is not None:
            await asyncio.wait_for(task, WAIT)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(reported, 5)
    await settle()
    camera.shot("07-error-banner.png")

    # 7b. the broken server fails again while the user looks at the travel agent: its row says so
    ctx.selection.select("demo-travel")
    reported = asyncio.ensure_future(wait_signal(ctx.errors.error_reported, WAIT))
    retry = window.sidebar.viewmodel.reconnect_profile("broken")
    with contextlib.suppress(Exception):
        if retry is not None:
            await asyncio.wait_for(retry, WAIT)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(reported, 5)
    await settle()
    camera.shot("07b-error-in-the-sidebar.png")

    # 10b. an MCP App: the demo's weather tool shown in its sandboxed web view above the result
    await app_step(window, camera)

    # 10c. sampling answered by a model: the demo server's handoff tool asks for a completion, a local model
    # endpoint (the tests' loopback OpenAI-compatible API) answers it; the responder dialog shows the log
    await sampling_step(window, camera)

    # 11. the 2026-07-28 Tasks extension: the demo server runs a counting task; the Tasks tab follows it
    await tasks_step(window, camera)

    # 11b-11f. documents in the result pane, a destructive tool asking first, the Roots tab
    await surface_steps(window, camera)

    # 12-13. logins watched step by step in the Login view: one that works, one stopped by a wrong issuer
    await login_steps(window, camera)


async def app_step(window: Any, camera: Camera) -> None:
    """``weather_app`` called through its form; the app initialises, calls its forecast tool and shows it."""
    from workbench.ui.asyncutil import wait_signal

    window.ctx.selection.select("demo-mcp-stdio")
    await settle()
    inspector = window.inspector.inspector("mcp")
    inspector.tabs.setCurrentWidget(inspector.tools)
    assert inspector.tools.select_tool("weather_app")
    call = inspector.tools.detail.call
    call.form.set_value({"city": "Lisbon"})
    shown = asyncio.ensure_future(wait_signal(call.app_slot.app_shown, WAIT))
    call.call_button.click()
    (view,) = await shown
    with contextlib.suppress(TimeoutError):
        await wait_signal(view.initialized, WAIT)
    await asyncio.sleep(1.0)  # the app's own forecast call and its resize
    await settle()
    camera.shot("10b-mcp-app.png")


async def sampling_step(window: Any, camera: Camera) -> None:
    """The demo server's ``handoff`` tool sampled and answered by a model endpoint under the *auto* policy."""
    from PySide6.QtWidgets import QDialog

    from tests.servers.model_api import serve_model_api
    from workbench.core.sampling.endpoints import ModelEndpoint
    from workbench.core.sampling.responders import SamplingPolicy
    from workbench.core.sampling.service import SamplingChoice
    from workbench.ui.asyncutil import wait_signal

    service = window.ctx.services.sampling
    async with serve_model_api() as api:
        endpoint = ModelEndpoint(
            name="local", api="openai", base_url=api.openai_url, model="echo", input_price=0.15, output_price=0.6
        )
        service.endpoints.put(endpoint)
        service.set_choice("Demo MCP (stdio)", SamplingChoice("model:local", SamplingPolicy.AUTO))
        window.ctx.selection.select("demo-mcp-stdio")
        await settle()
        inspector = window.inspector.inspector("mcp")
        inspector.tabs.setCurrentWidget(inspector.tools)
        assert inspector.tools.select_tool("handoff")
        call = inspector.tools.detail.call
        call.form.set_value({"agent_uri": "agent://travel", "message": "Plan a weekend in Lisbon for two"})
        finished = asyncio.ensure_future(wait_signal(inspector.vm.calls.finished, WAIT))
        call.call_button.click()
        await finished
        window.open_sampling_responder()
        await settle()
        camera.shot("10c-sampling-by-a-model.png")
        for dialog in [w for w in window.findChildren(QDialog) if w.isVisible()]:
            dialog.reject()


async def tasks_step(window: Any, camera: Camera) -> None:
    """The demo server's ``task_count`` run as a task, listed and selected in its Tasks tab."""
    from workbench.ui.asyncutil import wait_signal

    window.ctx.selection.select("demo-mcp-stdio")
    await settle()
    inspector = window.inspector.inspector("mcp")
    conn = window.ctx.services.connections.get("demo-mcp-stdio")
    await conn.agent.call_tool("task_count", {"n": 3, "pause_ms": 5})
    inspector.tabs.setCurrentWidget(inspector.tasks)
    while not inspector.tasks.model.rows():
        await wait_signal(inspector.tasks_vm.tasks_changed, WAIT)
    inspector.tasks.table.selectRow(0)
    await settle()
    camera.shot("11-tasks.png")
    inspector.tabs.setCurrentWidget(inspector.tools)


async def surface_steps(window: Any, camera: Camera) -> None:
    """The demo's PDF, CSV and HTML results, ``reset_counter`` asking before its call, and the Roots tab."""
    from workbench.ui.asyncutil import wait_signal

    window.ctx.selection.select("demo-mcp-stdio")
    await settle()
    inspector = window.inspector.inspector("mcp")
    inspector.tabs.setCurrentWidget(inspector.tools)
    call = inspector.tools.detail.call
    for tool, step in (("pdf_report", "11b-pdf-result"), ("csv_table", "11c-csv-result"), ("html_page", "11d-html")):
        assert inspector.tools.select_tool(tool)
        finished = asyncio.ensure_future(wait_signal(inspector.vm.calls.finished, WAIT))
        call.call_button.click()
        await finished
        await settle()
        camera.shot(f"{step}.png")
    assert inspector.tools.select_tool("reset_counter")
    shown = asyncio.ensure_future(wait_signal(window.prompts.prompt_shown, WAIT))
    finished = asyncio.ensure_future(wait_signal(inspector.vm.calls.finished, WAIT))
    call.call_button.click()
    (dialog,) = await shown
    await settle()
    camera.shot("11e-destructive-tool-asks.png")
    dialog.reject()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(finished, WAIT)
    inspector.tabs.setCurrentWidget(inspector.roots)
    await settle()
    camera.shot("11f-roots.png")
    inspector.tabs.setCurrentWidget(inspector.tools)


async def login_steps(window: Any, camera: Camera) -> None:
    """Log in to the test OAuth server from the sidebar (the browser leg followed by an HTTP client)."""
    from tests.servers.oauth_as import serve_oauth_protected_mcp
    from workbench.core.http.browser import follow_redirects_opener
    from workbench.core.profiles import MCPHTTPProfile

    sidebar = window.sidebar
    sidebar.viewmodel.oauth_commands.opener = follow_redirects_opener
    for step, overrides in (
        ("12-login-steps.png", None),
        ("13-login-failed-step.png", {"issuer": "https://impostor.example/"}),
    ):
        async with serve_oauth_protected_mcp(metadata_overrides=overrides) as servers:
            name = "Docs (OAuth)" if overrides is None else "Docs (wrong issuer)"
            profile = MCPHTTPProfile(id=step[:2], name=name, url=servers.url, auth="oauth")
            sidebar.viewmodel.add(profile)
            sidebar.select(profile.id)
            sidebar.actions_by_id["login"].trigger()
            task = sidebar.viewmodel.task(profile.id)
            with contextlib.suppress(Exception):
                if task is not None:
                    await asyncio.wait_for(task, WAIT)
            window.show_login_steps()
            await settle()
            camera.shot(step)


async def handoff_journey(window: Any, camera: Camera) -> None:
    """The handoff scenario: approve each hop, fill the booking form, shoot the finished chain."""
    from PySide6.QtWidgets import QApplication

    from workbench.demo.scenarios.handoff import SCRIPTED_TRAVELLER
    from workbench.ui.asyncutil import wait_signal
    from workbench.ui.dialogs.handoff_approval import HandoffApprovalDialog
    from workbench.ui.dialogs.input_required import InputRequiredDialog

    shot_approval = shot_form = False
    task = window.scenario_task
    while not task.done():
        shown = asyncio.ensure_future(wait_signal(window.prompts.prompt_shown, WAIT))
        done, _ = await asyncio.wait({shown, task}, return_when=asyncio.FIRST_COMPLETED)
        if shown not in done:
            shown.cancel()
            break
        (dialog,) = shown.result()
        await settle()
        if isinstance(dialog, HandoffApprovalDialog):
            if not shot_approval:
                camera.shot("08-handoff-approval.png")
                shot_approval = True
            dialog.approve_button.click()
        elif isinstance(dialog, InputRequiredDialog):
            if dialog.form is not None:
                dialog.form.set_value(SCRIPTED_TRAVELLER)
                await settle()
            if not shot_form:
                camera.shot("09-handoff-waiting-for-user.png")
                shot_form = True
            dialog.send_button.click()
    await task
    await settle()
    for box in [w for w in QApplication.topLevelWidgets() if w.objectName() == "scenarioResultBox"]:
        box.close()
    window.handoffs.zoom_fit()
    await settle()
    camera.shot("10-handoff.png")


HANDOFF_STEPS = ("08-handoff-approval", "09-handoff-waiting-for-user", "10-handoff")
"""The steps of the handoff journey (a second window run)."""

DARK_COLORS = {
    "Window": "#202124",
    "WindowText": "#e8eaed",
    "Base": "#17181a",
    "AlternateBase": "#26282b",
    "ToolTipBase": "#2d2f33",
    "ToolTipText": "#e8eaed",
    "PlaceholderText": "#8b949e",
    "Text": "#e8eaed",
    "Button": "#2b2d31",
    "ButtonText": "#e8eaed",
    "BrightText": "#ffffff",
    "Light": "#3c4043",
    "Midlight": "#34373b",
    "Mid": "#5f6368",
    "Dark": "#111214",
    "Shadow": "#000000",
    "Highlight": "#2f6fd6",
    "HighlightedText": "#ffffff",
    "Link": "#8ab4f8",
    "LinkVisited": "#c58af9",
}
"""A desktop's dark palette (Xvfb has no desktop to ask): what a dark-mode user's Qt gets."""


def use_palette(theme: str) -> None:
    """Make the application light or dark the way a desktop would: the colour scheme hint and its palette."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor, QPalette
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setStyle("Fusion")
    app.styleHints().setColorScheme(Qt.ColorScheme.Dark if theme == "dark" else Qt.ColorScheme.Light)
    if theme == "dark":
        palette = QPalette()
        for role, colour in DARK_COLORS.items():
            palette.setColor(getattr(QPalette.ColorRole, role), QColor(colour))
        for role in ("Text", "WindowText", "ButtonText"):
            palette.setColor(QPalette.ColorGroup.Disabled, getattr(QPalette.ColorRole, role), QColor("#6b6f75"))
        app.setPalette(palette)


def journeys(out: Path, theme: str, keep: tuple[str, ...] = ()) -> int:
    """Run the journeys on the current display (the child's job); the handoff one only if a step of it is kept."""
    from workbench.app import GuiOptions, run_gui

    use_palette(theme)
    camera = Camera(out, keep)

    def hook(walk: Any) -> Any:
        async def run(window: Any) -> None:
            try:
                await walk(window, camera)
            finally:
                window.close()

        return run

    with tempfile.TemporaryDirectory() as config:
        code = run_gui(GuiOptions(demo=True, config_dir=config, ready_hook=hook(demo_journeys)))
    if not any(camera.wants(step) for step in HANDOFF_STEPS):
        return code
    with tempfile.TemporaryDirectory() as config:
        return code or run_gui(
            GuiOptions(demo=True, scenario="handoff", config_dir=config, ready_hook=hook(handoff_journey))
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", nargs="?", default="docs/screenshots", type=Path)
    parser.add_argument("--only", choices=SIZES, help="one screen (1366x768@2x: HiDPI, scale 2)")
    parser.add_argument("--theme", choices=THEMES, help="one palette")
    parser.add_argument("--steps", default="", help="step numbers to keep, comma-separated (01,05)")
    parser.add_argument("--journeys", action="store_true", help=argparse.SUPPRESS)  # the child's mode
    args = parser.parse_args()
    steps = tuple(step.strip() for step in args.steps.split(",") if step.strip())
    if args.journeys:
        return journeys(args.out, args.theme or "light", steps)
    sizes = (args.only,) if args.only else SIZES
    themes = (args.theme,) if args.theme else THEMES
    return drive(args.out, sizes, themes, steps)


if __name__ == "__main__":
    sys.exit(main())
