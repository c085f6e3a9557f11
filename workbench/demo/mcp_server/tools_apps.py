"""Demo MCP App (``io.modelcontextprotocol/ui``): a weather card rendered by the host, on the SDK's ``Apps`` extension.

``weather_app`` returns today's weather for a city (structured, deterministic: derived from the city's
name) and names the ``ui://workbench-demo/weather.html`` app, which shows it. Once shown, the app calls the
app-only tool ``weather_forecast`` through the host for a three-day table, logs what it showed
(``notifications/message``), reports its size, and answers the host's teardown. The HTML is self-contained:
no remote script, style, font or request (its CSP declares no origin).
"""

from __future__ import annotations

from mcp.server.apps import Apps
from mcp_types import ToolAnnotations
from pydantic import BaseModel

APP_URI = "ui://workbench-demo/weather.html"
_READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
_SKIES = ("clear", "cloudy", "rain", "snow", "fog")


class Weather(BaseModel):
    """One day's weather in a city."""

    city: str
    day: int
    temp_c: int
    sky: str


class Forecast(BaseModel):
    """Several days of weather in a city."""

    city: str
    days: list[Weather]


def weather_for(city: str, day: int = 0) -> Weather:
    """Deterministic weather: the same city and day always give the same answer."""
    seed = sum(ord(c) for c in city) + 7 * day
    return Weather(city=city, day=day, temp_c=seed % 35 - 5, sky=_SKIES[seed % len(_SKIES)])


APP_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><title>Weather</title>
<style>
body { font: 14px sans-serif; margin: 8px; color: #222; }
h3 { margin: 0 0 4px 0; } td { padding: 0 8px 0 0; } #status { color: #666; }
</style></head>
<body>
<h3 id="city">Weather</h3>
<p id="today">waiting for the result…</p>
<table id="forecast"></table>
<p id="status">starting</p>
<script>
"use strict";
var nextId = 1, pending = {}, city = null;
function send(message) { window.parent.postMessage(message, "*"); }
function request(method, params) {
  var id = nextId++;
  send({jsonrpc: "2.0", id: id, method: method, params: params});
  return new Promise(function (resolve, reject) { pending[id] = {resolve: resolve, reject: reject}; });
}
function status(text) { document.getElementById("status").textContent = text; }
function resize() {
  send({jsonrpc: "2.0", method: "ui/notifications/size-changed",
        params: {width: document.documentElement.scrollWidth,
                 height: Math.ceil(document.body.getBoundingClientRect().bottom) + 8}});
}
function row(w) {
  var tr = document.createElement("tr");
  ["day +" + w.day, w.temp_c + " °C", w.sky].forEach(function (text) {
    var td = document.createElement("td"); td.textContent = text; tr.appendChild(td);
  });
  return tr;
}
function showForecast(result) {
  var table = document.getElementById("forecast");
  result.structuredContent.days.forEach(function (w) { table.appendChild(row(w)); });
  status("forecast shown");
  var shown = "forecast shown: " + result.structuredContent.days.length + " days";
  send({jsonrpc: "2.0", method: "notifications/message", params: {level: "info", logger: "weather", data: shown}});
  resize();
}
function showResult(result) {
  var w = result.structuredContent;
  if (!w) { status("the result has no weather"); return; }
  city = w.city;
  document.getElementById("city").textContent = w.city;
  document.getElementById("today").textContent = w.temp_c + " °C, " + w.sky;
  status("loading the forecast");
  resize();
  request("tools/call", {name: "weather_forecast", arguments: {city: w.city, days: 3}})
    .then(showForecast, function (error) { status("forecast refused: " + error.message); });
}
window.addEventListener("message", function (event) {
  if (event.source !== window.parent) { return; }
  var m = event.data;
  if (!m || m.jsonrpc !== "2.0") { return; }
  if (m.method === undefined && pending[m.id]) {
    var p = pending[m.id]; delete pending[m.id];
    if (m.error) { p.reject(m.error); } else { p.resolve(m.result); }
  } else if (m.method === "ui/notifications/tool-input") {
    status("input: " + JSON.stringify(m.params.arguments));
  } else if (m.method === "ui/notifications/tool-result") {
    showResult(m.params);
  } else if (m.method === "ui/notifications/tool-cancelled") {
    status("cancelled: " + m.params.reason);
  } else if (m.method === "ui/resource-teardown") {
    send({jsonrpc: "2.0", id: m.id, result: {}});
  }
});
request("ui/initialize", {protocolVersion: "2026-01-26", appInfo: {name: "weather", version: "1.0.0"},
                          appCapabilities: {availableDisplayModes: ["inline"]}})
  .then(function () {
    send({jsonrpc: "2.0", method: "ui/notifications/initialized", params: {}});
    status("initialized");
  });
</script>
</body></html>
"""


def build_apps() -> Apps:
    """The demo's Apps extension: ``weather_app`` (shown with the app), ``weather_forecast`` (the app's only)."""
    apps = Apps()

    @apps.tool(
        resource_uri=APP_URI,
        title="Weather (MCP App)",
        description="Today's weather in a city, shown in an interactive app (MCP Apps); deterministic.",
        annotations=_READ_ONLY,
    )
    def weather_app(city: str = "Oslo") -> Weather:
        return weather_for(city)

    @apps.tool(
        resource_uri=APP_URI,
        visibility=["app"],
        description="A few days of weather in a city, for the weather app (apps only).",
        annotations=_READ_ONLY,
    )
    def weather_forecast(city: str, days: int = 3) -> Forecast:
        return Forecast(city=city, days=[weather_for(city, d) for d in range(1, max(1, min(days, 7)) + 1)])

    apps.add_html_resource(
        APP_URI, APP_HTML, name="weather-app", title="Weather app", description="The weather card", prefers_border=True
    )
    return apps
