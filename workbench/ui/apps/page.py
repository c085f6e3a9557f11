"""The sandboxed web page an MCP App runs in: its own off-the-record profile, a request guard, no navigation.

The only module that imports QtWebEngine; ``view.py`` imports it when the first app is shown, so the
window starts without the engine. The page is a small host document of ours (set with ``setHtml`` under a
base URL that resolves nowhere) holding the app in an ``<iframe sandbox="allow-scripts" srcdoc=...>``: the app
gets an opaque origin, so it cannot reach the host document, storage or cookies, and its ``window.parent``
is the host document, as the extension expects. A script of ours in Qt's application world (which the app's
scripts cannot see) relays the frame's ``postMessage`` JSON-RPC to Python over a QWebChannel and back.

What the app may not do, and what stops it:
- load anything but the origins its CSP declared: the Content-Security-Policy of the host document (which the
  srcdoc frame inherits), and ``RequestGuard`` on the profile refusing every other request (``file:`` and
  ``qrc:`` included);
- navigate (itself or the host document) or open windows: ``AppPage.acceptNavigationRequest`` and
  ``createWindow`` refuse, and the frame's sandbox has no ``allow-popups``/``allow-top-navigation``;
- keep anything: the profile is off the record (no disk cache, cookies or storage), local storage is off;
- use permissions (camera, microphone, location, clipboard, files, screen): every request is denied.
Each refusal is reported through ``refused`` so the window can show it and the wire log can keep it.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import QCoreApplication, QFile, QIODevice, QObject, QUrl, Signal, Slot
from PySide6.QtWebChannel import QWebChannel
from PySide6.QtWebEngineCore import (
    QWebEngineDownloadRequest,
    QWebEnginePage,
    QWebEngineProfile,
    QWebEngineScript,
    QWebEngineSettings,
    QWebEngineUrlRequestInfo,
    QWebEngineUrlRequestInterceptor,
)

from workbench.core.apps.resource import origin_allowed

BASE_URL = QUrl("https://mcp-app.invalid/")
"""The host document's base URL: ``.invalid`` never resolves, and every request to it is refused anyway."""
LOCAL_SCHEMES = frozenset({"data", "about", "blob"})
"""Schemes that never leave the page (inline images, the srcdoc frame, object URLs)."""

_HOST_DOCUMENT = """<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<style>html,body{{margin:0;padding:0;height:100%;overflow:hidden;background:transparent}}
iframe{{border:0;width:100%;height:100vh;display:block}}</style></head><body></body></html>"""

_RELAY = """
(function () {
  if (window.__workbenchRelay) { return; }
  window.__workbenchRelay = true;
  new QWebChannel(qt.webChannelTransport, function (channel) {
    var host = channel.objects.host;
    var frame = null;
    window.addEventListener("message", function (event) {
      if (!frame || event.source !== frame.contentWindow) { return; }
      var text;
      try { text = JSON.stringify(event.data); } catch (err) { text = "null"; }
      host.from_app(typeof text === "string" ? text : "null");
    });
    host.to_app.connect(function (text) {
      if (frame && frame.contentWindow) { frame.contentWindow.postMessage(JSON.parse(text), "*"); }
    });
    host.load.connect(function (html) {
      frame = document.createElement("iframe");
      frame.setAttribute("sandbox", "allow-scripts");
      frame.setAttribute("referrerpolicy", "no-referrer");
      frame.srcdoc = html;
      document.body.appendChild(frame);
    });
    host.ready();
  });
})();
"""


def _qwebchannel_js() -> str:
    """Qt's own ``qwebchannel.js``, from its resources (no file and no request involved)."""
    file = QFile(":/qtwebchannel/qwebchannel.js")
    if not file.open(QIODevice.OpenModeFlag.ReadOnly):
        raise RuntimeError("Qt's qwebchannel.js resource is missing")
    try:
        return bytes(file.readAll().data()).decode("utf-8")
    finally:
        file.close()


class RequestGuard(QWebEngineUrlRequestInterceptor):
    """Lets a request through only to a local scheme or an origin the app declared; reports the rest.

    Args:
        origins: The origin patterns the app declared (connect and resource domains).
    """

    def __init__(self, origins: tuple[str, ...], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.origins = origins
        self.refused_urls: list[str] = []
        self.on_refused: list[object] = []

    def interceptRequest(self, info: QWebEngineUrlRequestInfo) -> None:  # noqa: N802
        """Block ``info`` unless it stays local or goes to a declared origin."""
        url = info.requestUrl()
        if url.scheme().lower() in LOCAL_SCHEMES:
            return
        text = url.toString()
        if origin_allowed(text, self.origins):
            return
        info.block(True)
        if len(self.refused_urls) < 100:
            self.refused_urls.append(text[:300])
        for callback in self.on_refused:
            callback(f"request to {text[:300]}")  # type: ignore[operator]


class HostObject(QObject):
    """The Python end of the relay, published on the page's QWebChannel as ``host``.

    Signals:
        load(str): The app's HTML, for the relay to put in its frame.
        to_app(str): One JSON-RPC message for the app.
        ready_changed(): The relay connected.
        message_received(str): One message the app posted (JSON text).
    """

    load = Signal(str)
    to_app = Signal(str)
    ready_changed = Signal()
    message_received = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.is_ready = False

    @Slot()
    def ready(self) -> None:
        """The relay in the page is connected."""
        if not self.is_ready:
            self.is_ready = True
            self.ready_changed.emit()

    @Slot(str)
    def from_app(self, text: str) -> None:
        """The app posted a message."""
        self.message_received.emit(text)


class AppPage(QWebEnginePage):
    """The page: navigation and new windows refused after the host document loaded; permissions denied.

    Signals:
        refused(str): What was refused, in words (a navigation, a popup, a permission, a request, a download).
    """

    refused = Signal(str)

    def __init__(self, profile: QWebEngineProfile, parent: QObject | None = None) -> None:
        super().__init__(profile, parent)
        self._loaded_host = False
        self.permissionRequested.connect(self._on_permission_requested)
        self.fileSystemAccessRequested.connect(self._on_file_system_access_requested)
        self.desktopMediaRequested.connect(self._on_desktop_media_requested)

    def set_host_document(self, policy: str) -> None:
        """Load the host document under ``policy``; the one navigation this page ever accepts."""
        self._loaded_host = False
        self.setHtml(_HOST_DOCUMENT.format(policy=policy.replace('"', "")), BASE_URL)

    def acceptNavigationRequest(  # noqa: N802
        self, url: QUrl | str, type_: QWebEnginePage.NavigationType, is_main_frame: bool
    ) -> bool:
        """Accept the host document once and the app's srcdoc frame; refuse every other navigation."""
        target = QUrl(url)
        if is_main_frame and not self._loaded_host:
            self._loaded_host = True
            return True
        if not is_main_frame and target.toString() in ("about:srcdoc", "about:blank"):
            return True
        self.refused.emit(f"navigation to {target.toString()[:300]}")
        return False

    def createWindow(self, type_: QWebEnginePage.WebWindowType) -> QWebEnginePage:  # noqa: N802
        """Refuse every popup and new window (no page is made for it)."""
        self.refused.emit("a new window")
        return None  # type: ignore[return-value]

    def javaScriptConsoleMessage(  # noqa: N802
        self, level: QWebEnginePage.JavaScriptConsoleMessageLevel, message: str, line: int, source: str
    ) -> None:
        """Report what the engine's sandbox and CSP blocked (it says so on the console); echo nothing else.

        The app's own console output is not echoed to the window's log: it may say anything, and an app
        that logs in a loop would flood it.
        """
        if ("Content Security Policy" in message or "sandboxed" in message) and message.startswith(
            ("Refused", "Blocked", "Unsafe", "Fetch API")
        ):
            self.refused.emit(message.splitlines()[0][:300])

    def _on_file_system_access_requested(self, request: Any) -> None:
        request.reject()
        self.refused.emit("file access")

    def _on_desktop_media_requested(self, request: Any) -> None:
        request.cancel()
        self.refused.emit("screen capture")

    def _on_permission_requested(self, permission: object) -> None:
        permission.deny()  # type: ignore[attr-defined]
        self.refused.emit(f"permission {getattr(permission, 'permissionType', lambda: '?')()}")


def harden(settings: QWebEngineSettings) -> None:
    """Turn off what an app has no use for and could abuse."""
    attr = QWebEngineSettings.WebAttribute
    for off in (
        attr.JavascriptCanOpenWindows,
        attr.JavascriptCanAccessClipboard,
        attr.JavascriptCanPaste,
        attr.LocalStorageEnabled,
        attr.LocalContentCanAccessFileUrls,
        attr.LocalContentCanAccessRemoteUrls,
        attr.PluginsEnabled,
        attr.FullScreenSupportEnabled,
        attr.ScreenCaptureEnabled,
        attr.AllowRunningInsecureContent,
        attr.AllowGeolocationOnInsecureOrigins,
        attr.AllowWindowActivationFromJavaScript,
        attr.NavigateOnDropEnabled,
        attr.PdfViewerEnabled,
        attr.DnsPrefetchEnabled,
        attr.HyperlinkAuditingEnabled,
        attr.WebGLEnabled,
        attr.Accelerated2dCanvasEnabled,
        attr.ErrorPageEnabled,
        attr.AutoLoadIconsForPage,
        attr.TouchIconsEnabled,
    ):
        settings.setAttribute(off, False)


_quit_guarded = False


def _on_about_to_quit() -> None:
    app = QCoreApplication.instance()
    if app is not None:
        app.aboutToQuit.disconnect()  # every receiver, the engine's included: see _guard_engine_quit


def _guard_engine_quit() -> None:
    """Let the application quit more than once after the engine started, without crashing.

    QtWebEngine (6.12) tears its context down on the first ``aboutToQuit`` and leaves a dead receiver
    connected: the next ``QCoreApplication.exit()`` calls it and the process segfaults. ``asyncio.run`` on
    qasync exits once per ``run_until_complete`` (the window's run, then the async generators' and the
    executor's shutdown), so the window would crash on every close after showing an app. Once the first
    ``aboutToQuit`` has reached the engine (it connected before this), the signal is disconnected from all
    receivers; the application is quitting by then and nothing in the workbench listens to it.
    """
    global _quit_guarded
    app = QCoreApplication.instance()
    if _quit_guarded or app is None:
        return
    _quit_guarded = True
    app.aboutToQuit.connect(_on_about_to_quit)


def make_profile(origins: tuple[str, ...], parent: QObject | None = None) -> tuple[QWebEngineProfile, RequestGuard]:
    """A fresh off-the-record profile with ``RequestGuard`` and the relay script; downloads cancelled."""
    profile = QWebEngineProfile(parent)  # no storage name: off the record, nothing on disk
    _guard_engine_quit()  # after the engine started (the profile started it) and connected its own receiver
    profile.setHttpCacheType(QWebEngineProfile.HttpCacheType.MemoryHttpCache)
    profile.setPersistentCookiesPolicy(QWebEngineProfile.PersistentCookiesPolicy.NoPersistentCookies)
    profile.setPersistentPermissionsPolicy(QWebEngineProfile.PersistentPermissionsPolicy.AskEveryTime)
    profile.setSpellCheckEnabled(False)
    guard = RequestGuard(origins, profile)
    profile.setUrlRequestInterceptor(guard)
    profile.downloadRequested.connect(lambda item: _cancel_download(item, guard))
    script = QWebEngineScript()
    script.setName("workbench-relay")
    script.setSourceCode(_qwebchannel_js() + _RELAY)
    script.setInjectionPoint(QWebEngineScript.InjectionPoint.DocumentReady)
    script.setWorldId(QWebEngineScript.ScriptWorldId.ApplicationWorld)
    script.setRunsOnSubFrames(False)
    profile.scripts().insert(script)
    return profile, guard


def _cancel_download(item: QWebEngineDownloadRequest, guard: RequestGuard) -> None:
    item.cancel()
    for callback in guard.on_refused:
        callback("a download")  # type: ignore[operator]


def attach_channel(page: AppPage, host: HostObject) -> QWebChannel:
    """Publish ``host`` to the relay, in the application world only (the app's scripts cannot reach it)."""
    channel = QWebChannel(page)
    channel.registerObject("host", host)
    page.setWebChannel(channel, QWebEngineScript.ScriptWorldId.ApplicationWorld)
    return channel


def json_text(value: object) -> str:
    """Compact JSON for the relay."""
    return json.dumps(value, separators=(",", ":"))
