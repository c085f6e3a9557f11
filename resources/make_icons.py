"""Render resources/icons/workbench.svg to the PNG sizes the app and the desktop entry use (QtSvg, offscreen).

Run after editing the SVG: ``.venv/bin/python resources/make_icons.py``. The PNGs are committed, so the
app never needs QtSvg at run time.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICONS = Path(__file__).resolve().parent / "icons"


def render(svg: Path, size: int) -> QImage:
    """Render ``svg`` to a transparent ``size`` x ``size`` image, antialiased."""
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"error: {svg} is not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter)
    painter.end()
    return image


def main() -> int:
    """Write ``icons/workbench-<n>.png`` for every size; returns the exit code."""
    _app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])
    svg = ICONS / "workbench.svg"
    for size in SIZES:
        out = ICONS / f"workbench-{size}.png"
        if not render(svg, size).save(str(out), "PNG"):
            print(f"error: could not write {out}", file=sys.stderr)
            return 1
        print(f"wrote {out.relative_to(ICONS.parent)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
