"""A sampling responder backed by a model endpoint (OpenAI-compatible or Anthropic).

The SDK of the endpoint's API is imported when the first request is answered, never before: a
connection that never samples pays nothing. The whole answer is bounded by the endpoint's timeout,
however the stream trickles.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import anyio
from pydantic import SecretStr

from workbench.core.errors import ConfigError, ModelTimeoutError
from workbench.core.protocols.base import ContentPart, SamplingRequest, SamplingResponse, SamplingUsage
from workbench.core.sampling.completion import Completion, TextSink
from workbench.core.sampling.endpoints import ModelEndpoint
from workbench.core.sampling.tools import check_tool_uses
from workbench.core.wire.recorder import WireRecorder

MODELS_EXTRA_HINT = "pip install 'agent-workbench[models]' (the official openai and anthropic packages)"
_PACKAGES = {"openai": "openai", "anthropic": "anthropic"}


class ModelResponder:
    """Answers sampling requests with a model.

    Args:
        endpoint: Where the model is and how to ask it.
        key: The endpoint's API key (``None``: none sent, e.g. a local Ollama).
        on_text: Receives the answer's text as it streams in.
        wire: Where the endpoint's HTTP exchanges are recorded, redacted (``None``: not recorded).
        connection_id: The connection those records carry.
    """

    def __init__(
        self,
        endpoint: ModelEndpoint,
        key: SecretStr | None,
        *,
        on_text: TextSink | None = None,
        wire: WireRecorder | None = None,
        connection_id: str = "model",
    ) -> None:
        self.endpoint = endpoint
        self._key = key
        self.on_text = on_text
        self.wire = wire
        self.connection_id = connection_id
        self.name = f"model:{endpoint.name}"

    def __repr__(self) -> str:
        return f"ModelResponder({self.endpoint.name!r}, api={self.endpoint.api!r})"

    async def __call__(self, request: SamplingRequest) -> SamplingResponse:
        """Ask the model; its answer as a sampling reply (text, or tool calls when the request offered tools).

        Raises:
            ConfigError: The endpoint's SDK is not installed.
            ModelEndpointError: The endpoint failed (subclasses: timeout, malformed answer, unknown tool).
        """
        done = await self.complete(request)
        check_tool_uses(request, done.tool_uses, f"The model behind {self.endpoint.name!r}")
        return self._response(done)

    async def complete(self, request: SamplingRequest, on_text: TextSink | None = None) -> Completion:
        """Ask the model; its answer as it came, tool calls unchecked (a caller that answers them checks).

        Args:
            request: What to ask.
            on_text: Receives the text as it streams in (default: the responder's ``on_text``).

        Raises:
            ConfigError: The endpoint's SDK is not installed.
            ModelEndpointError: The endpoint failed (subclasses: timeout, malformed answer).
        """
        endpoint = self.endpoint
        if importlib.util.find_spec(_PACKAGES[endpoint.api]) is None:
            raise ConfigError(f"The {endpoint.api} package is not installed.", hint=MODELS_EXTRA_HINT)
        if endpoint.api == "openai":
            from workbench.core.sampling import openai_chat as api
        else:
            from workbench.core.sampling import anthropic_messages as api  # type: ignore[no-redef]
        key = self._key.get_secret_value() if self._key is not None else None
        http_client: Any = None
        if self.wire is not None:
            from workbench.core.http.model_client import tapped_client

            http_client = tapped_client(self.wire, self.connection_id, timeout=endpoint.timeout, secret=key)
        try:
            with anyio.fail_after(endpoint.timeout):
                return await api.complete(endpoint, key, request, on_text or self.on_text, http_client)
        except TimeoutError:
            raise ModelTimeoutError(
                f"The model endpoint {endpoint.name!r} did not finish its answer within {endpoint.timeout:g} s."
            ) from None
        finally:
            if http_client is not None:
                await http_client.aclose()

    def _response(self, done: Completion) -> SamplingResponse:
        parts: list[ContentPart] = [ContentPart("text", text=done.text)] if done.text else []
        parts += done.tool_uses
        stop = "toolUse" if done.tool_uses else done.stop_reason
        usage = SamplingUsage(
            input_tokens=done.input_tokens,
            output_tokens=done.output_tokens,
            cost=self.endpoint.cost(done.input_tokens, done.output_tokens),
        )
        return SamplingResponse(
            text=done.text, model=done.model, stop_reason=stop, content=tuple(parts), usage=usage, responder=self.name
        )
