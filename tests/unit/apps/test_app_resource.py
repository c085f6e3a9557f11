"""MCP Apps resources: which tool has an app, the app read and bounded, its declared origins checked, its CSP."""

from __future__ import annotations

import base64

import pytest

from workbench.core.apps.resource import (
    APP_MIME_TYPE,
    AppCsp,
    AppResourceError,
    app_from_contents,
    app_uri,
    app_visibility,
    callable_from_app,
    check_origin,
    content_security_policy,
    origin_allowed,
)
from workbench.core.protocols.catalog import ResourceContents, ToolSpec
from workbench.core.protocols.content import ContentPart

URI = "ui://demo/app.html"


def contents(text: str | None = "<p>hi</p>", *, mime: str = APP_MIME_TYPE, meta=None, blob=None) -> ResourceContents:
    part = ContentPart("resource", text=text, blob=blob, uri=URI, mime_type=mime, meta=meta)
    return ResourceContents(uri=URI, parts=[part])


def test_a_tool_names_its_app_in_meta_ui_resource_uri_and_only_ui_uris_count() -> None:
    assert app_uri(ToolSpec("t", meta={"ui": {"resourceUri": URI}})) == URI
    assert app_uri(ToolSpec("t", meta={"ui/resourceUri": URI})) == URI  # the early drafts' flat key
    assert app_uri(ToolSpec("t", meta={"ui": {"resourceUri": "https://evil.example/app.html"}})) is None
    assert app_uri(ToolSpec("t", meta={"ui": "nonsense"})) is None
    assert app_uri(ToolSpec("t")) is None


def test_visibility_defaults_to_model_and_app_and_app_only_tools_are_callable_from_apps() -> None:
    assert app_visibility(ToolSpec("t")) == {"model", "app"}
    assert not callable_from_app(ToolSpec("t", meta={"ui": {"visibility": ["model"]}}))
    assert callable_from_app(ToolSpec("t", meta={"ui": {"visibility": ["app"]}}))


def test_an_app_is_read_with_its_declared_origins_and_bad_entries_are_dropped_and_listed() -> None:
    meta = {
        "ui": {
            "csp": {
                "connectDomains": ["https://api.example.com", "https://API.example.com/", "*", "'self'"],
                "resourceDomains": ["https://*.cdn.example", "http://evil.example", "https://x.example; script-src *"],
            },
            "permissions": {"camera": {}, "teleport": {}},
            "prefersBorder": True,
        }
    }
    app = app_from_contents(URI, contents(meta=meta))
    assert app.html == "<p>hi</p>"
    assert app.csp.connect_domains == ("https://api.example.com",)
    assert app.csp.resource_domains == ("https://*.cdn.example",)
    assert app.permissions == ("camera",)
    assert app.prefers_border is True
    assert len(app.dropped) == 4


def test_a_base64_blob_app_is_decoded() -> None:
    blob = base64.b64encode(b"<b>blob</b>").decode()
    assert app_from_contents(URI, contents(None, blob=blob)).html == "<b>blob</b>"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"mime": "text/html"},
        {"text": "x" * 2_000_001},
        {"text": None, "blob": "not base64!"},
        {"text": None, "blob": base64.b64encode(b"\xff\xfe").decode()},
    ],
    ids=["plain-html", "too-large", "bad-base64", "not-utf8"],
)
def test_what_is_not_an_app_is_refused_with_a_typed_error(kwargs) -> None:
    with pytest.raises(AppResourceError) as caught:
        app_from_contents(URI, contents(**kwargs))
    assert caught.value.code == "app-resource"


def test_the_csp_allows_nothing_remote_unless_declared() -> None:
    policy = content_security_policy(AppCsp())
    assert "default-src 'none'" in policy
    assert "connect-src 'none'" in policy and "frame-src 'none'" in policy
    assert "https:" not in policy
    declared = content_security_policy(AppCsp(connect_domains=("https://api.example.com",)))
    assert "connect-src https://api.example.com" in declared


def test_origins_match_by_scheme_host_and_port_with_wildcard_subdomains() -> None:
    assert check_origin("http://localhost:8000") == "http://localhost:8000"
    assert check_origin("https://a.example/path") is None
    assert origin_allowed("https://a.cdn.example/x.js", ["https://*.cdn.example"])
    assert not origin_allowed("https://cdn.example/x.js", ["https://*.cdn.example"])
    assert not origin_allowed("https://a.example.evil/x", ["https://a.example"])
    assert not origin_allowed("http://a.example/x", ["https://a.example"])
    assert not origin_allowed("file:///etc/passwd", ["https://a.example"])
