"""The rules every dialog and secondary window follows when it opens: where it appears and where the keys go.

Every dialog is opened through ``present`` (window-modal; ``asyncutil.open_dialog`` calls it) and every
other secondary window through ``show_window``; each applies, before the window is shown:

1. **Placement.** The window is placed on its parent's screen: centred over its parent window and
   clamped, frame included, to that screen's available geometry (never at (0,0) because a window
   manager had to guess, never with its title bar off the screen), and it gets its final size first.
   A window that grows right after it is mapped races the window manager, which then drops it at the
   screen's corner with its title bar off the screen (seen under openbox in 1 of 3 openings of the
   connection dialog whose keyring note arrived a moment after it was shown). So a dialog is shown
   with its content complete and sized for it (its wrapped labels' height for its width); content
   that changes later (a kind switch, a failed save) grows the window with ``refit``, which keeps it
   on the screen.
2. **First focus.** The keyboard is where the hands are: a dialog names its first focus with
   ``first_focus()`` — the first input field of its form, else its primary non-destructive action
   (a permission question with nothing to type: the refusal, so that a stray Enter never grants).
   A dialog that names none keeps the focus it set itself (a message box's default button); else
   it gets its first input field (``first_input``), else its default button.
3. **No destructive default.** A destructive button — one that throws away what the user typed or
   ends a request or task for good: Reject, Decline, Cancel task, Remove — is never the default, so
   Enter never destroys; it acts only when clicked, or when the user moved the focus onto it. Such
   a button has ``DestructiveRole`` in its button box or is marked with ``mark_destructive``. When
   the dialog has no default left, its first accept-role button becomes the default; with none,
   no button is (Qt would otherwise make the first button in the tab order the default).
4. **Ctrl+Enter answers a form.** In a dialog where the user fills something in and sends it (an
   elicitation form, an input-required answer, a sampling reply, a sign-in, a connection), Ctrl+Enter
   (Ctrl+Return, the keypad's Enter too) presses the dialog's accept action wherever the focus is, a
   multi-line field included (there plain Enter writes a new line), as Ctrl+Enter calls a tool on the
   tools page. The dialog names that action with ``accept_action()``. While the action is disabled
   Ctrl+Enter does nothing (the dialog says beside it what is missing); it never presses a destructive
   button (Reject, Decline, Cancel task), whichever button has the focus. A permission question (the
   tool-approval and handoff-approval dialogs) names no accept action: there Ctrl+Enter is not a way to
   approve, and its keys stay Qt's (Enter presses the focused button; the dialog opens on the refusal).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from PySide6.QtCore import QMargins, QObject, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication, QKeySequence, QScreen, QShortcut
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTextEdit,
    QToolButton,
    QWidget,
)

from workbench.ui.window_layout import onto_screen

DESTRUCTIVE_PROPERTY = "destructive"
"""The dynamic property ``mark_destructive`` sets on a button."""

_PLACED_PROPERTY = "workbenchPlaced"
"""Set on a window once placed: opening it again keeps where the user moved it (pulled onto the screen)."""

_ACCEPTING_ROLES = (
    QDialogButtonBox.ButtonRole.AcceptRole,
    QDialogButtonBox.ButtonRole.YesRole,
    QDialogButtonBox.ButtonRole.ApplyRole,
)


@runtime_checkable
class NamesFirstFocus(Protocol):
    """A dialog that says which widget gets the keyboard when it opens."""

    def first_focus(self) -> QWidget | None:
        """The widget to focus when the dialog opens (None: the rules' fallback)."""
        ...


@runtime_checkable
class NamesAcceptAction(Protocol):
    """A form dialog that says which button Ctrl+Enter presses (rule 4)."""

    def accept_action(self) -> QAbstractButton | None:
        """The button that sends what the dialog holds (Accept, Send, Approve, OK), enabled or not."""
        ...


ACCEPT_KEYS = ("Ctrl+Return", "Ctrl+Enter")
"""The keys that press a form dialog's accept action (rule 4); Qt matches the keypad's Enter to both."""


def present(dialog: QDialog) -> None:
    """Apply the rules (placement, first focus, no destructive default) and open ``dialog`` window-modally."""
    prepare(dialog)
    dialog.open()


def show_window(window: QWidget) -> None:
    """Apply the rules and show ``window`` (a non-modal box, a secondary window) without blocking."""
    prepare(window)
    window.show()


def prepare(window: QWidget) -> None:
    """Apply the rules to ``window`` before it is shown (``present`` and ``show_window`` call it)."""
    settle_default_button(window)
    install_accept_keys(window)
    place_on_parent_screen(window)
    give_first_focus(window)


# ---------------------------------------------------------------------------------------------- destructive


def mark_destructive(button: QAbstractButton) -> None:
    """Say that ``button`` destroys (rule 3): it is never made the default."""
    button.setProperty(DESTRUCTIVE_PROPERTY, True)
    if isinstance(button, QPushButton):
        button.setDefault(False)


def is_destructive(button: QAbstractButton) -> bool:
    """Whether ``button`` was marked destructive or has ``DestructiveRole`` in its button box or message box."""
    if button.property(DESTRUCTIVE_PROPERTY):
        return True
    parent = button.parentWidget()
    while parent is not None and not parent.isWindow():
        if isinstance(parent, QDialogButtonBox):
            return parent.buttonRole(button) is QDialogButtonBox.ButtonRole.DestructiveRole
        parent = parent.parentWidget()
    window = button.window()
    if isinstance(window, QMessageBox):
        return window.buttonRole(button) is QMessageBox.ButtonRole.DestructiveRole
    return False


def _push_buttons(window: QWidget) -> list[QPushButton]:
    return [b for b in window.findChildren(QPushButton) if b.window() is window]


def _accepting(button: QPushButton) -> bool:
    parent = button.parentWidget()
    while parent is not None and not parent.isWindow():
        if isinstance(parent, QDialogButtonBox):
            return parent.buttonRole(button) in _ACCEPTING_ROLES
        parent = parent.parentWidget()
    return False


def settle_default_button(window: QWidget) -> QPushButton | None:
    """Rule 3: no destructive default; the first accept-role button is the default when none is.

    Returns:
        The default button afterwards (None: Enter presses no button).
    """
    buttons = _push_buttons(window)
    destructive = [b for b in buttons if is_destructive(b)]
    for button in destructive:
        button.setDefault(False)
    default = next((b for b in buttons if b.isDefault()), None)
    if default is None:
        default = next((b for b in buttons if _accepting(b) and not is_destructive(b)), None)
        if default is not None:
            default.setDefault(True)
        else:
            for button in destructive:  # else Qt makes the first auto-default button in the tab order the default
                button.setAutoDefault(False)
    return default


# ---------------------------------------------------------------------------------------------- Ctrl+Enter

_ACCEPT_KEYS_NAME = "workbenchAcceptKeys"


class _AcceptKeys(QObject):
    """Ctrl+Return and Ctrl+Enter on a form dialog (rule 4): shortcuts of its window, owned by it.

    A window shortcut fires before the focused widget sees the key (a multi-line field would write a new
    line), and only while the dialog is the active window.
    """

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.setObjectName(_ACCEPT_KEYS_NAME)
        self._window = window
        for keys in ACCEPT_KEYS:
            shortcut = QShortcut(QKeySequence(keys), window)
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(self.on_shortcut_activated)

    def on_shortcut_activated(self) -> None:
        press_accept_action(self._window)


def install_accept_keys(window: QWidget) -> bool:
    """Rule 4: make Ctrl+Enter press ``window``'s accept action, if it names one (once per window).

    Returns:
        Whether the window has the keys afterwards.
    """
    if not isinstance(window, NamesAcceptAction):
        return False
    if window.findChild(_AcceptKeys, _ACCEPT_KEYS_NAME, Qt.FindChildOption.FindDirectChildrenOnly) is None:
        _AcceptKeys(window)
    return True


def press_accept_action(window: QWidget) -> bool:
    """Press ``window``'s accept action as Ctrl+Enter does: only when it is shown, enabled and not destructive.

    Returns:
        Whether it was pressed (a disabled action: no, and the dialog's own line says what is missing).
    """
    if not isinstance(window, NamesAcceptAction):
        return False
    button = window.accept_action()
    if button is None or is_destructive(button) or not button.isEnabled() or not button.isVisibleTo(window):
        return False
    button.click()
    return True


# ---------------------------------------------------------------------------------------------- focus


def _is_input(widget: QWidget) -> bool:
    if isinstance(widget, QLineEdit | QAbstractSpinBox):
        return not widget.isReadOnly()
    if isinstance(widget, QPlainTextEdit | QTextEdit):
        return not widget.isReadOnly()
    if isinstance(widget, QComboBox | QAbstractItemView):
        return True
    # check boxes and radio buttons; push and tool buttons are actions, not fields
    return isinstance(widget, QAbstractButton) and not isinstance(widget, QPushButton | QToolButton)


SECONDARY_INPUT = "secondaryInput"
"""Widget property: an input that is another way to type what a form's fields hold (never the first focus)."""


def first_input(container: QWidget) -> QWidget | None:
    """The first input field inside ``container`` (visible, enabled, reachable with Tab), or None.

    Found among ``container``'s descendants in the order they were made (a form's fields are made in
    the order it shows them), never by walking the focus chain: PySide6 records each widget
    ``nextInFocusChain()`` returns as a child of the widget it was called on, and a walk through a
    window made the window's panels look owned by a form that is later deleted (their Qt parts were
    then marked deleted while on screen).
    """
    window = container.window()
    for widget in container.findChildren(QWidget):
        if widget.isWindow():
            continue  # a combo box's popup list, a completer: not in the container's tab order
        if widget.property(SECONDARY_INPUT):
            continue  # another way to type what the fields hold (a form's raw JSON)
        if (
            widget.isVisibleTo(window)
            and widget.isEnabled()
            and bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus)
            and _is_input(widget)
        ):
            return widget
    return None


def first_focus_of(window: QWidget) -> QWidget | None:
    """Rule 2: the widget that gets the keyboard when ``window`` opens."""
    if isinstance(window, QFileDialog):
        return window.focusWidget()  # Qt's own dialog focuses its file name itself
    if isinstance(window, NamesFirstFocus):
        named = window.first_focus()
        if named is not None:
            return named
    if window.focusWidget() is not None:
        return window.focusWidget()
    found = first_input(window)
    if found is not None:
        return found
    return next((b for b in _push_buttons(window) if b.isDefault() and b.isEnabled()), None)


def give_first_focus(window: QWidget) -> QWidget | None:
    """Focus ``window``'s first focus (rule 2); it takes the keyboard when the window becomes active."""
    target = first_focus_of(window)
    if target is not None:
        target.setFocus(Qt.FocusReason.OtherFocusReason)
    return target


# ---------------------------------------------------------------------------------------------- placement


def _anchor(window: QWidget, parent: QWidget | None) -> QWidget | None:
    """The window ``window`` is placed over: ``parent``'s (or its own parent's) top-level window, if shown."""
    owner = parent if parent is not None else window.parentWidget()
    if owner is None:
        return None
    top = owner.window()
    return top if top is not window and top.isVisible() else None


def _frame_margins(window: QWidget, anchor: QWidget | None) -> QMargins:
    """The window's frame (title bar and borders), or its parent's as the best guess before it is shown."""
    for source in (window, anchor):
        if source is not None and source.isVisible():
            inner, outer = source.geometry(), source.frameGeometry()
            margins = QMargins(
                inner.left() - outer.left(),
                inner.top() - outer.top(),
                outer.right() - inner.right(),
                outer.bottom() - inner.bottom(),
            )
            if margins.top() > 0 or source is anchor:
                return margins
    return QMargins()


def content_size(window: QWidget) -> QSize:
    """The size ``window`` needs: its set size (else the one Qt would give it), tall enough for its wrapped text."""
    window.ensurePolished()
    layout = window.layout()
    if layout is not None:
        layout.activate()
    if window.testAttribute(Qt.WidgetAttribute.WA_Resized) or window.isVisible():
        size = QSize(window.size())
    else:
        window.adjustSize()
        size = QSize(window.size())
    size = size.expandedTo(window.minimumSizeHint()).expandedTo(window.minimumSize())
    if layout is not None and layout.hasHeightForWidth():
        size.setHeight(max(size.height(), layout.totalHeightForWidth(size.width())))
    return size.boundedTo(window.maximumSize())


def screen_of(window: QWidget, parent: QWidget | None = None) -> QScreen:
    """The screen ``window`` belongs on: its parent window's, else its own."""
    anchor = _anchor(window, parent)
    screen = anchor.screen() if anchor is not None else window.screen()
    return screen or QGuiApplication.primaryScreen()


def place_on_parent_screen(window: QWidget, parent: QWidget | None = None) -> QRect:
    """Rule 1: size ``window`` for its content and put its frame centred over its parent window, on that screen.

    The frame is clamped to the screen's available geometry (a window larger than it is shrunk to it).
    A window placed before keeps where it is (the user may have moved it), pulled onto the screen.

    Args:
        window: A top-level widget (dialog, message box, secondary window), shown or not.
        parent: The widget it belongs to (default: its parent widget).

    Returns:
        The frame geometry it was given.
    """
    anchor = _anchor(window, parent)
    available = screen_of(window, parent).availableGeometry()
    margins = _frame_margins(window, anchor)
    room = QSize(
        available.width() - margins.left() - margins.right(), available.height() - margins.top() - margins.bottom()
    )
    size = content_size(window).boundedTo(room)
    frame = QRect(QPoint(0, 0), size).marginsAdded(margins)
    if window.property(_PLACED_PROPERTY):
        frame.moveTopLeft(window.frameGeometry().topLeft())
    elif anchor is not None:
        frame.moveCenter(anchor.frameGeometry().center())
    else:
        frame.moveCenter(available.center())
    frame = onto_screen(frame, available)
    if size != window.size():
        window.resize(size)
    window.move(frame.topLeft())  # a window's position is its frame's
    window.setProperty(_PLACED_PROPERTY, True)
    return frame


def refit(window: QWidget) -> None:
    """Grow a shown ``window`` to the height its content needs at its width, keeping all of it on its screen.

    For content that changes after the window opened (a note, another set of fields); Qt does not grow a
    window for wrapped text, which is then cut off.
    """
    if not window.isVisible():
        return
    layout = window.layout()
    if layout is None:
        return
    layout.activate()
    needed = window.minimumSizeHint().height()
    if layout.hasHeightForWidth():
        needed = max(needed, layout.totalHeightForWidth(window.width()))
    if needed <= window.height():
        return
    available = screen_of(window).availableGeometry()
    margins = _frame_margins(window, _anchor(window, None))  # not framed yet: its parent's frame is the guess
    height = min(needed, available.height() - margins.top() - margins.bottom())
    window.resize(window.width(), height)
    frame = window.frameGeometry()
    frame.setHeight(height + margins.top() + margins.bottom())
    fitted = onto_screen(frame, available)
    if fitted.topLeft() != frame.topLeft():
        window.move(fitted.topLeft())
