"""Who answers sampling on the command line (``--sampling``, ``--sampling-policy``) and the ``model`` commands.

``--sampling person|script:FILE|model:NAME`` picks the responder of ``call`` and ``send``; ``workbench
model add|list|remove|key`` keeps the model endpoints (``models.json``; keys in the OS keyring).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from workbench.cli.options import ProfileCommandOptions
from workbench.core.errors import ConfigError
from workbench.core.timefmt import duration_text

if TYPE_CHECKING:
    from workbench.core.protocols.base import SamplingHandler
    from workbench.core.sampling.responders import SamplingLogEntry

PERSON = "person"
POLICIES = ("auto", "ask", "deny")

SAMPLING_HELP = (
    "who answers the server's requests for a completion (sampling): person (--answer or the terminal; "
    "default), script:FILE (rules from a JSON/YAML file), or model:NAME (an endpoint saved with 'workbench model add')"
)
POLICY_HELP = (
    "auto: the reply goes back at once, each one logged on stderr (default); ask: a person approves each "
    "script or model draft (--answer y|n|TEXT or the terminal); deny: refuse every request"
)


@dataclass(frozen=True, slots=True, kw_only=True)
class ModelCommandOptions(ProfileCommandOptions):
    """``workbench model add|list|remove|key``.

    Attributes:
        action: ``add``, ``list``, ``remove`` or ``key``.
        name: The endpoint (all but ``list``).
        fields: ``add``: the endpoint's fields (api, base_url, model, timeout, prices, stream).
        file: ``key --file``: read the key from this file.
    """

    action: str
    name: str | None = None
    fields: dict[str, Any] = field(default_factory=dict)
    file: str | None = None


def add_sampling_options(parser: argparse.ArgumentParser) -> None:
    """``--sampling`` and ``--sampling-policy`` on ``call`` and ``send``."""
    parser.add_argument("--sampling", default=PERSON, metavar="person|script:FILE|model:NAME", help=SAMPLING_HELP)
    parser.add_argument("--sampling-policy", choices=POLICIES, default="auto", help=POLICY_HELP)


def add_model_commands(sub: Any, config_dir_option: Any) -> None:
    """Register ``model add|list|remove|key`` on the top-level subparsers."""
    model = sub.add_parser("model", help="model endpoints that answer sampling (keys kept in the OS keyring)")
    msub = model.add_subparsers(dest="model_command", required=True)
    add = msub.add_parser("add", help="save (or replace) a model endpoint")
    add.add_argument("name", metavar="NAME")
    add.add_argument("--api", choices=["openai", "anthropic"], required=True, help="openai also covers Ollama, vLLM")
    add.add_argument("--url", required=True, metavar="URL", help="the API's base URL (e.g. http://127.0.0.1:11434/v1)")
    add.add_argument("--model", required=True, metavar="MODEL")
    add.add_argument("--timeout", type=float, default=60.0, metavar="S", help="seconds for a whole answer (60)")
    add.add_argument("--max-tokens", type=int, default=None, metavar="N", help="most output tokens asked for")
    add.add_argument("--input-price", type=float, default=None, metavar="P", help="price per million input tokens")
    add.add_argument("--output-price", type=float, default=None, metavar="P", help="price per million output tokens")
    add.add_argument("--no-stream", action="store_true", help="ask for whole answers instead of streams")
    listing = msub.add_parser("list", help="list the model endpoints")
    listing.add_argument("--json", action="store_true")
    remove = msub.add_parser("remove", help="forget a model endpoint and its key")
    remove.add_argument("name", metavar="NAME")
    key = msub.add_parser("key", help="store an endpoint's API key (from standard input, a hidden prompt or --file)")
    key.add_argument("name", metavar="NAME")
    key.add_argument("--file", metavar="FILE", help="read the key from FILE")
    for leaf in (add, listing, remove, key):
        config_dir_option(leaf)


async def sampling_handler(
    choice: str, policy: str, person: SamplingHandler, approver: Any, config_dir: str | None, note: TextIO | None = None
) -> SamplingHandler:
    """The handler for ``--sampling CHOICE --sampling-policy POLICY``; a person alone under ``auto`` is ``person``.

    Args:
        choice: ``person``, ``script:FILE`` or ``model:NAME``.
        policy: ``ask``, ``auto`` or ``deny``.
        person: How a person answers (the answer book).
        approver: How a person approves a draft (the answer book's ``approve_sampling``).
        config_dir: Where model endpoints are saved.
        note: Where the log of answers goes (standard error).

    Raises:
        ConfigError: An unknown responder, an unreadable script, an unknown endpoint.
    """
    from workbench.core.sampling.responders import SamplingPolicy, SamplingResponders

    responders: dict[str, SamplingHandler] = {PERSON: person}
    if choice.startswith("script:"):
        from workbench.core.sampling.script import SamplingScript

        script = SamplingScript.from_file(choice.removeprefix("script:"))
        responders[choice] = script
    elif choice.startswith("model:"):
        from workbench.core.credentials import KeyringCredentialStore
        from workbench.core.sampling.endpoints import ModelEndpointStore
        from workbench.core.sampling.model import ModelResponder

        store = ModelEndpointStore(config_dir, KeyringCredentialStore())
        endpoint = store.find(choice.removeprefix("model:"))
        responders[choice] = ModelResponder(endpoint, await store.key(endpoint))
    elif choice != PERSON:
        raise ConfigError(f"Unknown --sampling {choice!r}.", hint="person, script:FILE or model:NAME")
    handler = SamplingResponders(responders, choice, policy=SamplingPolicy(policy), approver=approver)
    handler.subscribe(lambda entry: print(describe_entry(entry), file=note or sys.stderr, flush=True))
    return handler


def describe_entry(entry: SamplingLogEntry) -> str:
    """One line of the sampling log: who answered, how, and what it cost."""
    head = f"[sampling] {entry.responder} ({entry.policy.value})"
    if entry.error is not None:
        return f"{head} {entry.outcome}: {entry.error.message} [{entry.error.code}]"
    response = entry.response
    assert response is not None
    calls = ", ".join(str((p.data or {}).get("name")) for p in response.tool_uses)
    what = f"tool call: {calls}" if calls else f"{len(response.text):,} characters"
    line = f"{head} answered with {what} in {duration_text(entry.seconds)}"
    usage = response.usage
    if usage is not None and (usage.input_tokens is not None or usage.output_tokens is not None):
        line += f"; tokens in {usage.input_tokens or 0} / out {usage.output_tokens or 0}"
        if usage.cost is not None:
            line += f", cost {usage.cost:.6f}"
    return line
