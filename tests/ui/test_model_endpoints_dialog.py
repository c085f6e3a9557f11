"""Model endpoints managed in the window: listed, added and edited with their fields checked and the API key typed
masked into the keyring alone (never shown again), removed with their key; without a secure keyring the key
field is off and a refused key saves nothing. Opened from the Sampling responder dialog and the chat's picker."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from PySide6.QtWidgets import QDialogButtonBox, QLineEdit, QMessageBox

from tests.support.demo_mcp import InProcessDemoFactory, demo_stdio_profile
from tests.support.keyrings import RefusingKeyring
from tests.support.panel_context import make_context
from tests.support.windows import plain_window
from workbench.core.credentials import KeyringCredentialStore
from workbench.core.errors import SecureStorageUnavailableError
from workbench.core.profiles.store import ProfileStore
from workbench.core.protocols.base import SamplingRequest, SamplingResponse
from workbench.core.sampling.endpoints import ModelEndpointStore
from workbench.core.sampling.service import SamplingService
from workbench.ui.asyncutil import wait_signal
from workbench.ui.dialogs.model_endpoint_form import ModelEndpointDialog
from workbench.ui.dialogs.model_endpoints import ModelEndpointsDialog
from workbench.ui.dialogs.secret_fields import STORED_PLACEHOLDER
from workbench.ui.panels.chat import ChatWidget

pytestmark = pytest.mark.asyncio
WAIT = 10.0
KEY = "sk-endpoints-dialog-0123456789-SECRET"
ACCOUNT = "model-endpoint:local"


@pytest.fixture
def test_keyring() -> Iterator[RefusingKeyring]:
    """An in-memory keyring as keyring's backend (refusing the accounts a test names), restored afterwards."""
    previous = keyring.get_keyring()
    backend = RefusingKeyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)


async def _form(endpoints: ModelEndpointsDialog, start: asyncio.Task[None] | None = None) -> ModelEndpointDialog:
    """The next form (or confirmation) the endpoints dialog opens."""
    opened = asyncio.ensure_future(wait_signal(endpoints.form_opened, WAIT))
    task = start or endpoints.add()
    (form,) = await opened
    assert not task.done()
    return form  # type: ignore[no-any-return]


def _fill(form: ModelEndpointDialog, **texts: str) -> None:
    for name, text in texts.items():
        edit = getattr(form, f"{name}_edit")
        assert isinstance(edit, QLineEdit)
        edit.setText(text)


def _save(form: ModelEndpointDialog) -> None:
    button = form.buttons.button(QDialogButtonBox.StandardButton.Save)
    assert button is not None
    button.click()


async def test_an_endpoint_is_added_edited_and_removed_from_the_sampling_dialog_its_key_in_the_keyring_only(
    qtbot, tmp_path: Path, test_keyring: RefusingKeyring
) -> None:
    config = tmp_path / "config"
    ProfileStore(config).upsert(demo_stdio_profile(name="demo"))
    async with plain_window(config, qtbot) as window:
        service = window.ctx.services.sampling
        assert service is not None
        service.endpoints.credentials = KeyringCredentialStore(allow_insecure=False)
        window.sidebar.select(window.sidebar.viewmodel.items()[0].profile.id)
        responder = window.open_sampling_responder()
        assert responder is not None
        responder.endpoints_button.click()
        endpoints = responder.endpoints_dialog
        assert isinstance(endpoints, ModelEndpointsDialog)
        await endpoints.refreshed
        assert endpoints.names() == [] and not endpoints.edit_button.isEnabled()

        add = endpoints.add()
        form = await _form(endpoints, add)
        _fill(form, name="bad name!", url="not a url", model="", timeout="-1", max_tokens="lots")
        _save(form)  # refused: each problem under its field
        assert form.isVisible()
        assert set(form.field_errors()) == {"name", "base_url", "model", "timeout", "max_tokens"}
        assert all(form.fields[f].error.isVisibleTo(form) for f in form.field_errors())
        _fill(form, name="local", url="http://127.0.0.1:11434/v1", model="llama3.2", timeout="30", max_tokens="512")
        _fill(form, input_price="0.5", output_price="1.5")
        form.key_field.edit.setText(KEY)
        assert form.key_field.edit.echoMode() is QLineEdit.EchoMode.Password
        changed = asyncio.ensure_future(wait_signal(endpoints.changed, WAIT))
        _save(form)
        await changed
        await add
        saved = service.endpoints.find("local")
        assert (saved.api, saved.model, saved.timeout, saved.max_tokens, saved.input_price, saved.output_price) == (
            "openai",
            "llama3.2",
            30.0,
            512,
            0.5,
            1.5,
        )
        assert test_keyring.value(ACCOUNT) == KEY
        assert KEY not in (config / "models.json").read_text(encoding="utf-8")
        assert endpoints.names() == ["local"]
        combo = responder.responder_combo
        assert [combo.itemData(i) for i in range(combo.count())] == ["person", "model:local"]

        # editing: the stored key is never shown, leaving it empty keeps it; the name stays
        edit = endpoints.edit("local")
        form = await _form(endpoints, edit)
        assert form.key_field.edit.text() == "" and form.key_field.edit.placeholderText() == STORED_PLACEHOLDER
        assert form.name_edit.isReadOnly() and form.url_edit.text() == "http://127.0.0.1:11434/v1"
        _fill(form, model="qwen3")
        changed = asyncio.ensure_future(wait_signal(endpoints.changed, WAIT))
        _save(form)
        await changed
        await edit
        assert service.endpoints.find("local").model == "qwen3" and test_keyring.value(ACCOUNT) == KEY

        # adding another of the same name is refused on the name field
        add = endpoints.add()
        form = await _form(endpoints, add)
        _fill(form, name="local", url="https://api.anthropic.com", model="claude")
        form.api_combo.setCurrentIndex(form.api_combo.findData("anthropic"))
        reopened = asyncio.ensure_future(wait_signal(endpoints.form_opened, WAIT))
        _save(form)
        assert (await reopened) == (form,) and set(form.field_errors()) == {"name"}
        form.reject()
        await add

        # removing, after the user agrees: the endpoint and its key are gone
        opened = asyncio.ensure_future(wait_signal(endpoints.form_opened, WAIT))
        remove = endpoints.remove("local")
        (box,) = await opened
        assert isinstance(box, QMessageBox)
        yes = box.button(QMessageBox.StandardButton.Yes)
        assert yes is not None
        yes.click()
        await remove
        assert endpoints.names() == [] and service.endpoints.load() == [] and test_keyring.value(ACCOUNT) is None
        assert [combo.itemData(i) for i in range(combo.count())] == ["person"]
        endpoints.reject()
        responder.reject()


async def test_without_a_secure_keyring_the_key_field_is_off_and_a_refused_key_saves_nothing(
    qtbot, tmp_path: Path, test_keyring: RefusingKeyring, fail_keyring: None
) -> None:
    store = ModelEndpointStore(tmp_path, KeyringCredentialStore(allow_insecure=False))
    endpoints = ModelEndpointsDialog(store)
    qtbot.addWidget(endpoints)
    await endpoints.refreshed
    form = await _form(endpoints)
    assert form.keyring_note.isVisibleTo(form) and not form.key_field.edit.isEnabled()
    _fill(form, name="ollama", url="http://127.0.0.1:11434/v1", model="llama3.2")
    add = endpoints.add()  # one form at a time: the same task
    _save(form)
    await add
    assert [e.name for e in store.load()] == ["ollama"]  # a keyless endpoint needs no keyring

    # a keyring that refuses the key: nothing is saved, the form stays open with the reason
    keyring.set_keyring(test_keyring)
    test_keyring.refuse_set.add(ACCOUNT)
    add = endpoints.add()
    form = await _form(endpoints, add)
    assert not form.keyring_note.isVisibleTo(form) and form.key_field.edit.isEnabled()
    _fill(form, name="local", url="https://api.openai.com/v1", model="gpt-4o-mini")
    form.key_field.edit.setText(KEY)
    reopened = asyncio.ensure_future(wait_signal(endpoints.form_opened, WAIT))
    _save(form)
    await reopened
    assert form.general_error.isVisibleTo(form) and form.keyring_note.isVisibleTo(form)
    assert [e.name for e in store.load()] == ["ollama"] and test_keyring.value(ACCOUNT) is None
    assert KEY not in (tmp_path / "models.json").read_text(encoding="utf-8")
    with pytest.raises(SecureStorageUnavailableError):
        await store.save(form.endpoint(), form.key())
    form.reject()
    await add


async def test_the_chat_of_a_server_without_an_entry_point_adds_a_model_endpoint_and_offers_it(
    qtbot, tmp_path: Path
) -> None:
    config = tmp_path / "config"
    ctx = make_context(config, factory=InProcessDemoFactory())

    async def person(request: SamplingRequest) -> SamplingResponse:
        raise AssertionError("not asked")

    ctx.services.sampling = SamplingService(
        person, ModelEndpointStore(config, ctx.services.credentials), config_dir=config
    )
    try:
        conn = await ctx.services.connections.connect(demo_stdio_profile(agent_tool="no_such_entry"))
        widget = ChatWidget(ctx)
        qtbot.addWidget(widget)
        widget.show()
        ctx.selection.select(conn.id)
        assert not widget.model_row.isVisible() and widget.endpoints_button.isVisible()  # the empty state
        widget.endpoints_button.click()
        endpoints = widget.endpoints_dialog
        assert isinstance(endpoints, ModelEndpointsDialog)
        form = await _form(endpoints)
        _fill(form, name="local", url="http://127.0.0.1:11434/v1", model="llama3.2")
        changed = asyncio.ensure_future(wait_signal(endpoints.changed, WAIT))
        _save(form)
        await changed
        assert widget.model_row.isVisible() and widget.choose_model("local") and widget.input.isEnabled()
        endpoints.reject()
    finally:
        await ctx.services.connections.aclose()
        ctx.bridge.detach()
