"""Model endpoint profiles (``models.json`` in the configuration directory); their keys live in the keyring.

The file::

    {"version": 1, "endpoints": [{"name": "local", "api": "openai", "base_url": "http://127.0.0.1:11434/v1",
                                  "model": "llama3.2", "timeout": 60, ...}]}

never holds a key: the key of endpoint ``NAME`` is stored in the credential store under
``model-endpoint:NAME`` (``workbench model key NAME``). Writes are atomic (temporary file, ``os.replace``).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, TypeAdapter, ValidationError, field_validator

from workbench.core.config_dir import resolve_config_dir
from workbench.core.credentials import CredentialStore
from workbench.core.errors import ConfigError, NotFoundError
from workbench.core.profiles.secret_refs import check_url

ENDPOINTS_FILE = "models.json"
FORMAT_VERSION = 1
KEY_PREFIX = "model-endpoint:"

ModelAPI = Literal["openai", "anthropic"]


class ModelEndpoint(BaseModel):
    """A model behind an HTTP API that answers sampling requests.

    Attributes:
        name: The profile's name (``--sampling model:NAME``).
        api: ``openai`` (chat completions: OpenAI, Ollama, vLLM, …) or ``anthropic`` (messages).
        base_url: The API's base URL (``https://api.openai.com/v1``, ``http://127.0.0.1:11434/v1``,
            ``https://api.anthropic.com``).
        model: The model to ask (the request's model preferences are shown, not followed).
        timeout: Seconds for a whole answer, streamed or not.
        max_tokens: Most output tokens asked for (the request's ``maxTokens`` if lower).
        input_price: Price per million input tokens (for the cost counter; ``None``: no cost shown).
        output_price: Price per million output tokens.
        stream: Ask for a streamed answer (deltas reach the log as they arrive).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=100, pattern=r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
    api: ModelAPI
    base_url: str
    model: str = Field(min_length=1, max_length=200)
    timeout: float = Field(default=60.0, gt=0, le=3600)
    max_tokens: int | None = Field(default=None, gt=0)
    input_price: float | None = Field(default=None, ge=0)
    output_price: float | None = Field(default=None, ge=0)
    stream: bool = True

    @field_validator("base_url")
    @classmethod
    def _url(cls, value: str) -> str:
        return check_url(value, "url")

    @property
    def key_name(self) -> str:
        """The credential store key of this endpoint's API key."""
        return KEY_PREFIX + self.name

    def cost(self, input_tokens: int | None, output_tokens: int | None) -> float | None:
        """The price of a call from its token counts (``None`` without prices or counts)."""
        if self.input_price is None and self.output_price is None:
            return None
        if input_tokens is None and output_tokens is None:
            return None
        return ((input_tokens or 0) * (self.input_price or 0) + (output_tokens or 0) * (self.output_price or 0)) / 1e6


_LIST = TypeAdapter(list[ModelEndpoint])


class ModelEndpointStore:
    """Saved model endpoints in ``<config dir>/models.json``.

    Args:
        config_dir: The configuration directory (``resolve_config_dir``); tests pass a temporary one.
        credentials: Where endpoint keys are kept.
    """

    def __init__(self, config_dir: str | os.PathLike[str] | None, credentials: CredentialStore) -> None:
        self.path = resolve_config_dir(config_dir) / ENDPOINTS_FILE
        self.credentials = credentials

    def load(self) -> list[ModelEndpoint]:
        """Every saved endpoint (none when the file does not exist).

        Raises:
            ConfigError: The file is unreadable or invalid.
        """
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError) as exc:
            raise ConfigError(f"Cannot read {self.path}.", hint=str(exc)) from None
        if not isinstance(raw, dict) or raw.get("version") != FORMAT_VERSION:
            raise ConfigError(f"{self.path} is not a version {FORMAT_VERSION} model endpoint file.")
        try:
            return _LIST.validate_python(raw.get("endpoints") or [])
        except ValidationError as exc:
            raise ConfigError(f"{self.path} holds an invalid endpoint.", hint=str(exc.errors()[0]["msg"])) from None

    def find(self, name: str) -> ModelEndpoint:
        """The endpoint called ``name``.

        Raises:
            NotFoundError: None is.
        """
        for endpoint in self.load():
            if endpoint.name == name:
                return endpoint
        raise NotFoundError(f"No model endpoint is called {name!r}.", hint="workbench model add NAME --api … --url …")

    def put(self, endpoint: ModelEndpoint) -> None:
        """Save ``endpoint``, replacing one of the same name."""
        endpoints = self.load()
        names = [e.name for e in endpoints]
        if endpoint.name in names:
            endpoints[names.index(endpoint.name)] = endpoint  # an edited endpoint keeps its place in the list
        else:
            endpoints.append(endpoint)
        self._write(endpoints)

    async def save(
        self, endpoint: ModelEndpoint, key: SecretStr | None = None, *, new: bool = False, forget_key: bool = False
    ) -> None:
        """Save ``endpoint`` and, when one is given, its API key (the window's add and edit).

        The key goes to the credential store first: when the store refuses it (no secure keyring) nothing
        is saved, and the key is never written anywhere else. ``key=None`` keeps a stored key as it is,
        unless ``forget_key``.

        Args:
            endpoint: The endpoint to save (replacing the one of its name unless ``new``).
            key: Its API key, or ``None`` to keep what is stored (or to have none).
            new: The endpoint is being added: a saved one of the same name is an error, not replaced.
            forget_key: Remove its stored key (when no new ``key`` is given).

        Raises:
            ConfigError: ``new`` and an endpoint of that name exists (``details["field"]`` is ``name``),
                or ``models.json`` cannot be read or written.
            SecureStorageUnavailableError: No secure keyring to keep the key.
        """
        if new and any(e.name == endpoint.name for e in self.load()):
            raise ConfigError(
                f"A model endpoint called {endpoint.name!r} exists already.",
                hint="pick another name, or edit that one",
                details={"field": "name", "name": endpoint.name},
            )
        if key is not None:
            await self.credentials.set(endpoint.key_name, key)
        elif forget_key:
            await self.credentials.delete(endpoint.key_name)
        self.put(endpoint)

    async def remove(self, name: str) -> None:
        """Forget the endpoint and its key.

        Raises:
            NotFoundError: No endpoint is called ``name``.
        """
        endpoint = self.find(name)
        await self.credentials.delete(endpoint.key_name)
        self._write([e for e in self.load() if e.name != name])

    async def set_key(self, name: str, key: SecretStr) -> None:
        """Store the API key of endpoint ``name`` in the credential store."""
        await self.credentials.set(self.find(name).key_name, key)

    async def key(self, endpoint: ModelEndpoint) -> SecretStr | None:
        """The endpoint's API key, if one is stored."""
        return await self.credentials.get(endpoint.key_name)

    def _write(self, endpoints: list[ModelEndpoint]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = {"version": FORMAT_VERSION, "endpoints": [e.model_dump(mode="json") for e in endpoints]}
        fd, tmp = tempfile.mkstemp(prefix=".models-", dir=self.path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(data, out, indent=2)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, self.path)
        except OSError as exc:
            Path(tmp).unlink(missing_ok=True)
            raise ConfigError(f"Cannot write {self.path}.", hint=str(exc)) from None
