"""The call area's space budget: how a tool's form and its result share the call splitter, and its JSON the form."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFontDatabase, QFontMetrics
from PySide6.QtWidgets import QBoxLayout, QLayoutItem, QSplitter, QWidget

from workbench.ui.forms.schema_form import SchemaForm
from workbench.ui.text_sizes import laid_out_lines, text_pane_chrome

QWIDGETSIZE_MAX = (1 << 24) - 1
"""Qt's "no maximum" for a widget's size."""
SIDE_BY_SIDE_WIDTH = 980
"""From this width on, the form and the result sit side by side; below it the result is under the form."""
RESULT_MIN_LINES = 8
"""Lines (of the results' fixed-width font) the result pane keeps: the form gives way first."""
RESULT_WAITING_LINES = 2
"""Lines the result pane keeps before the tool on show was called: the form takes the rest it needs."""
FORM_MIN_LINES = 6
"""Lines a form taller than its pane keeps (its JSON shows as many) before the result gives way."""
FORM_FLOOR_LINES = 2
"""Lines a form keeps whatever happens (the result takes its ``RESULT_MIN_LINES`` from the form's first)."""
JSON_BESIDE_WIDTH = 560
"""A form pane this wide has its JSON beside the fields; a narrower one has it under them."""
JSON_SHARE = 0.4
"""The JSON's part of the form pane: of its width beside the fields, of its height under them."""
JSON_MIN_WIDTH = 280
"""The JSON beside the fields is never narrower (about 30 characters of its font)."""
FORM_SHARE = 0.55
"""The most of the call area's height a stacked form takes (a tall one scrolls); its share of the width side by side."""


def _box(pane: QWidget | None) -> QBoxLayout:
    """The layout of one of the call splitter's panes (each has a box layout)."""
    layout = pane.layout() if pane is not None else None
    assert isinstance(layout, QBoxLayout)
    return layout


def _height(item: QLayoutItem | None) -> int:
    """The height a layout item asks for (nothing for a hidden one: its row is skipped)."""
    return item.sizeHint().height() if item is not None and not item.isEmpty() else 0


class CallAreaBudget(QObject):
    """Split a call area (``ToolCallWidget``) between the form pane and the result pane by its space budget.

    The area's splitter holds two panes with box layouts: the form over its Call row, and the
    history row and an error banner over the result. The budget reads their sizes, sets the
    splitter's orientation and sizes, and places the form's JSON beside or under its fields.

    Args:
        area: The widget whose size is shared out (the splitter fills it).
        splitter: The splitter between the form pane (index 0) and the result pane (index 1).
        has_outcome: Whether the result pane has something of the tool on show (a call running or
            ended, or its result): without one the form may take all but ``RESULT_WAITING_LINES``.
    """

    def __init__(self, area: QWidget, splitter: QSplitter, has_outcome: Callable[[], bool]) -> None:
        super().__init__(area)
        self._area = area
        self._splitter = splitter
        self._has_outcome = has_outcome
        self.form: SchemaForm | None = None
        """The form on show (set by the call area when it makes or drops one)."""
        self._oriented = False
        self._user_split = False  # once the user drags the handle, their split is kept
        splitter.splitterMoved.connect(self.on_splitter_moved)

    def arrange(self) -> None:
        """Split the call area between the form and the result by its space budget.

        - Side by side from ``SIDE_BY_SIDE_WIDTH`` (where both panes fit), the form with ``FORM_SHARE`` of
          the width. Not on a laptop: the Call and History rows need ~860 px beside each other, and a
          layout that flipped when a call's status or progress bar widened a row would jump.
        - Stacked, the form is as tall as its content (fields and JSON whole: a 2-field tool takes
          what its two fields need), at most ``FORM_SHARE`` of the height, at least ``FORM_MIN_LINES``;
          the result gets the rest. Before the tool on show has an outcome (no call yet) there is
          nothing to show in the result: the form may take all but ``RESULT_WAITING_LINES`` of it, and
          gives the result its budget when a call starts. What gives way as the area gets shorter: the form beyond
          ``FORM_MIN_LINES`` (it scrolls), the result beyond ``RESULT_MIN_LINES``, the form down to
          ``FORM_FLOOR_LINES`` (1366×768 with the wire log and the stderr tab open: the JSON keeps ~4
          lines; 1280×720 with the wire log open), last the result.
        - The form's JSON sits beside its fields in a pane ``JSON_BESIDE_WIDTH`` wide, else under them
          (each keeps ``FORM_MIN_LINES``): a narrow JSON column wrapped every value.
        - Side by side, the form pane is the area's height and the form is as tall as its content (fields
          and JSON whole), its Call row right under it and blank space below: a one-field form has its
          Call button under its field, never at the foot of a 1080 px window.
        - A split the user dragged is kept until the orientation changes or another tool is shown.
        """
        width, height = self._area.width(), self._area.height()
        splitter = self._splitter
        handle = splitter.handleWidth()
        self._place_json(width >= JSON_BESIDE_WIDTH)
        panes = [_box(splitter.widget(i)).minimumSize().width() for i in range(2)]
        # side by side only where both panes fit as they are, and never asking the window for more width
        splitter.setMinimumWidth(max(panes))
        wide = width >= max(SIDE_BY_SIDE_WIDTH, sum(panes) + handle)
        orientation = Qt.Orientation.Horizontal if wide else Qt.Orientation.Vertical
        if orientation != splitter.orientation() or not self._oriented:
            splitter.setOrientation(orientation)
            self._oriented = self._user_split = False
        self._hold_form()
        if self._oriented and self._user_split:
            return
        if wide:
            form = int((width - handle) * FORM_SHARE)
            form = min(form, width - handle - panes[1])  # the result pane as narrow as it goes, no narrower
            self._place_json(form >= JSON_BESIDE_WIDTH)
            splitter.setSizes([form, max(width - handle - form, 1)])
            self._hold_form()  # the JSON may have moved beside the fields: another height
        else:
            extent = height - handle
            content, least = self._form_heights()
            cap = int(extent * FORM_SHARE) if self._has_outcome() else extent
            form = min(content, max(least, cap))  # its content, FORM_MIN_LINES at least
            form = min(form, extent - self._result_min_height())  # but the result keeps its lines first
            form = max(form, min(content, self._form_floor()), 1)  # down to two lines of form
            splitter.setSizes([form, max(extent - form, 1)])
        self._oriented = True

    def follow_form(self) -> None:
        """A new form is on show: lay out for it, and again when its content grows or shrinks (an item added)."""
        self._user_split = False
        if self.form is not None:
            self.form.changed.connect(self.on_form_resized)
            inner = getattr(self.form, "splitter", None)
            if isinstance(inner, QSplitter):
                inner.installEventFilter(self)
        self.arrange()

    def on_form_resized(self) -> None:
        """The form changed: a stacked form follows its content's height (unless the user chose the split).

        Side by side, the form is held to its new content's height.
        """
        if self._splitter.orientation() == Qt.Orientation.Vertical and not self._user_split:
            self.arrange()
        else:
            self._hold_form()

    def _hold_form(self) -> None:
        """Side by side, hold the form (the form pane's first item) to its content's height; stacked, let it fill.

        Stacked, the splitter gives the form pane the form's height already (and a split the user dragged
        is theirs to fill); side by side the pane is the area's height, and the form would fill it and push
        the Call row under it to the area's foot (the pane's layout keeps blank space after the Call row).
        """
        holder = _box(self._splitter.widget(0)).itemAt(0)
        widget = holder.widget() if holder is not None else None
        if widget is None:
            return
        beside = self._splitter.orientation() == Qt.Orientation.Horizontal and self.form is not None
        most = self._form_heights()[0] - self._form_chrome() if beside else QWIDGETSIZE_MAX
        if widget.maximumHeight() != most:
            widget.setMaximumHeight(most)

    def on_splitter_moved(self, pos: int, index: int) -> None:
        """The user chose the split: keep it (until the orientation changes or another tool is shown)."""
        self._user_split = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """The form's inner splitter (fields | JSON) was resized: the JSON keeps its part of it."""
        if event.type() == QEvent.Type.Resize and watched is getattr(self.form, "splitter", None):
            self._size_json()
        return False

    def _place_json(self, beside: bool) -> None:
        """The form's JSON beside its fields, or under them."""
        inner = getattr(self.form, "splitter", None)
        orientation = Qt.Orientation.Horizontal if beside else Qt.Orientation.Vertical
        if isinstance(inner, QSplitter) and inner.orientation() != orientation:
            inner.setOrientation(orientation)
            self._size_json()

    def _size_json(self) -> None:
        """The JSON's part of the form pane: ``JSON_SHARE``; ``JSON_MIN_WIDTH`` beside the fields, 6 lines under."""
        inner = getattr(self.form, "splitter", None)
        if not isinstance(inner, QSplitter) or inner.count() != 2:
            return
        if inner.orientation() == Qt.Orientation.Horizontal:
            extent = inner.width() - inner.handleWidth()
            least = JSON_MIN_WIDTH
        else:
            extent = inner.height() - inner.handleWidth()
            least = self._json_heights()[0] + FORM_MIN_LINES * self._line_height()
        if extent > 1:
            json = min(max(int(extent * JSON_SHARE), least), extent - 1)
            inner.setSizes([extent - json, json])

    def _json_heights(self) -> tuple[int, int]:
        """``(chrome, content)`` of the form's JSON pane: its title and frame, and its text's lines (wrapped ones too).

        The editor's part of the chrome is ``text_pane_chrome``'s (with the pixel a plain text editor
        wants before it hides its scroll bar), so JSON that fits shows none.
        """
        form = self.form
        editor = form.json_editor if form is not None else None
        if form is None or editor is None or form.json_pane is None:
            return 0, 0
        chrome = form.json_pane.sizeHint().height() - editor.sizeHint().height() + text_pane_chrome(editor)
        return chrome, laid_out_lines(editor) * self._line_height()

    def _line_height(self) -> int:
        return QFontMetrics(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)).lineSpacing()

    def _form_chrome(self) -> int:
        """The form pane's height less the form's: its margins and the Call row under the form."""
        top = _box(self._splitter.widget(0))
        margins = top.contentsMargins()
        return margins.top() + margins.bottom() + top.spacing() + _height(top.itemAt(1))

    def _form_heights(self) -> tuple[int, int]:
        """``(content, least)``: the form's pane showing all its fields and JSON, and showing ``FORM_MIN_LINES``."""
        chrome = self._form_chrome()
        lines = self._line_height()
        form = self.form
        json_chrome, json_text = self._json_heights()
        inner = getattr(form, "splitter", None)
        if form is None or not isinstance(inner, QSplitter) or not json_chrome:
            least = chrome + FORM_MIN_LINES * lines
            return least, least
        outer = form.sizeHint().height() - inner.sizeHint().height()  # its problem list, its schema's note
        page = form.form_area.widget()
        fields = (page.sizeHint().height() if page is not None else 0) + 2 * form.form_area.frameWidth()
        json = json_chrome + json_text
        least_json = json_chrome + FORM_MIN_LINES * lines
        if inner.orientation() == Qt.Orientation.Vertical:  # the JSON under the fields
            content = fields + inner.handleWidth() + json
            least = FORM_MIN_LINES * lines + inner.handleWidth() + least_json
        else:
            content, least = max(fields, json), least_json
        return chrome + outer + content, chrome + outer + least

    def _form_floor(self) -> int:
        """The form's pane with ``FORM_FLOOR_LINES`` (its buttons included)."""
        return self._form_chrome() + FORM_FLOOR_LINES * self._line_height()

    def _result_min_height(self) -> int:
        """The result's pane showing ``RESULT_MIN_LINES`` (the history row and an error banner above it included).

        ``RESULT_WAITING_LINES`` while the tool on show has no outcome yet.
        """
        bottom = _box(self._splitter.widget(1))
        margins = bottom.contentsMargins()
        rows = [_height(bottom.itemAt(i)) for i in range(bottom.count() - 1)]  # the history row, an error banner
        above = sum(row + bottom.spacing() for row in rows if row)
        lines = RESULT_MIN_LINES if self._has_outcome() else RESULT_WAITING_LINES
        return margins.top() + margins.bottom() + above + lines * self._line_height()
