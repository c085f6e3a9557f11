"""Theme, stylesheets, app icon and where the resources are found (offscreen Qt)."""

from __future__ import annotations

import configparser
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication, QFrame, QLabel

from workbench.ui import resources_path, theme
from workbench.ui.resources_path import ResourcesNotFoundError, resources_dir

REPO_RESOURCES = Path(__file__).resolve().parents[2] / "resources"


@pytest.fixture
def clean_style(qapp: QApplication) -> Iterator[QApplication]:
    """Leave the session's QApplication unstyled for the other tests."""
    yield qapp
    qapp.setStyleSheet("")
    qapp.setProperty(theme.THEME_PROPERTY, None)


def test_resources_are_found_in_the_repo_checkout() -> None:
    found = resources_dir()
    assert found == REPO_RESOURCES
    assert (found / "styles" / "light.qss").is_file()
    assert (found / "styles" / "dark.qss").is_file()
    assert (found / "icons" / "workbench.svg").is_file()


def test_resources_in_a_pyinstaller_bundle_win(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bundled = tmp_path / "resources"
    (bundled / "styles").mkdir(parents=True)
    (bundled / "styles" / "light.qss").write_text("/* bundled */", encoding="utf-8")
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert resources_dir() == bundled


def test_an_incomplete_bundle_falls_back_to_the_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "resources").mkdir()  # no styles/light.qss: not a resources directory
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert resources_dir() == REPO_RESOURCES


def test_missing_resources_raise_a_clear_typed_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resources_path, "_candidates", lambda: iter([tmp_path / "nowhere"]))
    with pytest.raises(ResourcesNotFoundError) as caught:
        resources_dir()
    assert isinstance(caught.value, FileNotFoundError)
    assert str(tmp_path / "nowhere") in str(caught.value)


def test_every_icon_png_exists_at_its_nominal_size(qapp: QApplication) -> None:
    for size in theme.ICON_SIZES:
        image = QImage(str(REPO_RESOURCES / "icons" / f"workbench-{size}.png"))
        assert not image.isNull(), size
        assert (image.width(), image.height()) == (size, size)
        assert image.hasAlphaChannel()
        # transparent corner (rounded tile), opaque centre
        assert image.pixelColor(0, 0).alpha() == 0
        assert image.pixelColor(size // 2, size // 2).alpha() == 255


def test_app_icon_has_every_size(qapp: QApplication) -> None:
    icon = theme.app_icon()
    assert not icon.isNull()
    assert set(icon.availableSizes()) == {QSize(n, n) for n in theme.ICON_SIZES}
    assert icon.pixmap(16, 16).size() == QSize(16, 16)


def test_app_icon_with_a_missing_png_raises(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "styles").mkdir()
    (tmp_path / "styles" / "light.qss").write_text("", encoding="utf-8")
    (tmp_path / "icons").mkdir()
    monkeypatch.setattr(theme, "resources_dir", lambda: tmp_path)
    with pytest.raises(FileNotFoundError):
        theme.app_icon()


@pytest.mark.parametrize(
    ("scheme", "window", "expected"),
    [
        (Qt.ColorScheme.Dark, "#ffffff", "dark"),
        (Qt.ColorScheme.Light, "#202020", "light"),
        (Qt.ColorScheme.Unknown, "#202020", "dark"),
        (Qt.ColorScheme.Unknown, "#efefef", "light"),
    ],
)
def test_the_scheme_picks_the_theme_and_an_unknown_scheme_reads_the_palette(
    qapp: QApplication, scheme: Qt.ColorScheme, window: str, expected: str
) -> None:
    palette = QPalette()
    palette.setColor(QPalette.ColorRole.Window, QColor(window))
    assert theme.theme_for(scheme, palette) == expected


def test_each_theme_loads_its_own_qss_with_the_fixed_font_filled_in(qapp: QApplication) -> None:
    light, dark = theme.load_stylesheet("light"), theme.load_stylesheet("dark")
    assert light != dark
    assert light.startswith("/* Agent Workbench, light")
    assert dark.startswith("/* Agent Workbench, dark")
    for text in (light, dark):
        assert theme.FIXED_FONT_PLACEHOLDER not in text
        assert re.search(r'font-family: "[^"@]+";', text)
    with pytest.raises(ValueError):
        theme.stylesheet_path("solarized")


def test_state_colours_for_item_views_match_the_qss_rules(qapp: QApplication) -> None:
    for name in ("light", "dark"):
        qss = theme.load_stylesheet(name)
        rules = dict(re.findall(r'\*\[connectionState="(\w+)"\]\s*\{\s*color:\s*(#[0-9a-f]{6});', qss))
        assert rules == theme.STATE_COLORS[name]
    assert theme.state_color("failed", "dark") == QColor("#f85149")
    assert not theme.state_color("no-such-state", "light").isValid()


def test_apply_theme_offscreen_applies_the_light_qss(clean_style: QApplication) -> None:
    # The offscreen platform reports no scheme and a light Fusion palette.
    assert clean_style.styleHints().colorScheme() == Qt.ColorScheme.Unknown
    assert theme.apply_theme(clean_style) == "light"
    assert clean_style.styleSheet() == theme.load_stylesheet("light")
    assert theme.current_theme() == "light"


def test_a_scheme_change_reapplies_the_matching_qss_once(
    clean_style: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    theme.apply_theme(clean_style)
    theme.apply_theme(clean_style)  # a second call must not connect a second time
    applied: list[Qt.ColorScheme] = []
    real_apply = theme._apply

    def counting_apply(app: QApplication, scheme: Qt.ColorScheme) -> str:
        applied.append(scheme)
        return real_apply(app, scheme)

    monkeypatch.setattr(theme, "_apply", counting_apply)
    hints = clean_style.styleHints()
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
    assert applied == [Qt.ColorScheme.Dark]
    assert clean_style.styleSheet() == theme.load_stylesheet("dark")
    assert theme.current_theme() == "dark"
    hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
    assert clean_style.styleSheet() == theme.load_stylesheet("light")
    assert theme.current_theme() == "light"


def test_a_state_property_colours_a_label_and_restyles_on_change(qtbot, clean_style: QApplication) -> None:
    clean_style.setStyleSheet(theme.load_stylesheet("dark"))
    label = QLabel("server")
    qtbot.addWidget(label)
    theme.set_style_property(label, "connectionState", "failed")
    assert label.palette().color(QPalette.ColorRole.WindowText) == QColor("#f85149")
    theme.set_style_property(label, "connectionState", "connected")
    assert label.palette().color(QPalette.ColorRole.WindowText) == QColor("#3fb950")


def test_the_error_banner_gets_its_background(qtbot, clean_style: QApplication) -> None:
    clean_style.setStyleSheet(theme.load_stylesheet("light"))
    banner = QFrame()
    banner.setObjectName("errorBanner")
    qtbot.addWidget(banner)
    banner.resize(60, 30)
    pixel = banner.grab().toImage().pixelColor(30, 15)
    assert pixel == QColor("#ffebe9")


def test_the_desktop_entry_names_the_app_and_its_icon() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read(REPO_RESOURCES / "workbench.desktop", encoding="utf-8")
    section = entry["Desktop Entry"]
    assert section["Type"] == "Application"
    assert section["Name"] == "Agent Workbench"
    assert section["Exec"] == "workbench"
    assert section["Icon"] == "workbench"
    assert section["Terminal"] == "false"
    assert section["Categories"] == "Development;Network;"
