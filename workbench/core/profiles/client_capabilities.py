"""Which client capabilities an MCP connection advertises: one switch per capability, saved in the profile.

A switch that is off makes the client behave as a client without that capability: it is left out of
``initialize`` (handshake era) and of every request's ``_meta`` client capabilities (2026-07-28), and
the server's requests for it are refused. Turning switches off is how a user sees a server degrade
(server-everything lists fewer tools; an Apps server answers with text only).

Each switch has a word used on the command line and in messages (``CAPABILITY_WORDS``).
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from workbench.core.errors import UsageError

CAPABILITY_WORDS: dict[str, str] = {
    "sampling": "sampling",
    "sampling-tools": "sampling_tools",
    "elicitation-form": "elicitation_form",
    "elicitation-url": "elicitation_url",
    "roots": "roots",
    "tasks": "tasks",
    "apps": "apps",
}
"""Command-line word → field of ``ClientCapabilitySwitches``."""
GROUP_WORDS: dict[str, tuple[str, ...]] = {"elicitation": ("elicitation-form", "elicitation-url")}
"""Words that name several switches at once."""


class ClientCapabilitySwitches(BaseModel):
    """The client capabilities a connection may advertise; every switch is on unless turned off.

    Attributes:
        sampling: ``sampling``: the server may ask for an LLM completion (``sampling/createMessage``).
        sampling_tools: ``sampling.tools``: those requests may carry tools (SEP-1577); needs ``sampling``.
        elicitation_form: ``elicitation.form``: the server may ask the user to fill in a form.
        elicitation_url: ``elicitation.url``: the server may send the user to a URL.
        roots: ``roots``: the server may ask which folders it may use (declared only when the
            connection offers roots, or can offer them later).
        tasks: The 2026-07-28 Tasks extension (``io.modelcontextprotocol/tasks``) is advertised, and a
            handshake-era call is task-augmented when its tool requires it (2025-11-25 tasks).
        apps: MCP Apps (``io.modelcontextprotocol/ui``) are advertised — when the host can show them.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    sampling: bool = True
    sampling_tools: bool = True
    elicitation_form: bool = True
    elicitation_url: bool = True
    roots: bool = True
    tasks: bool = True
    apps: bool = True

    @property
    def elicitation(self) -> bool:
        """Whether any elicitation mode is advertised."""
        return self.elicitation_form or self.elicitation_url

    def switched_off(self) -> list[str]:
        """The command-line words of the switches that are off, in ``CAPABILITY_WORDS`` order."""
        return [word for word, field in CAPABILITY_WORDS.items() if not getattr(self, field)]

    def without(self, words: Iterable[str]) -> ClientCapabilitySwitches:
        """A copy with the switches ``words`` names turned off (``elicitation`` names both modes).

        Raises:
            UsageError: A word names no capability.
        """
        return self._with(words, False)

    def with_on(self, words: Iterable[str]) -> ClientCapabilitySwitches:
        """A copy with the switches ``words`` names turned on.

        Raises:
            UsageError: A word names no capability.
        """
        return self._with(words, True)

    def _with(self, words: Iterable[str], value: bool) -> ClientCapabilitySwitches:
        changes: dict[str, bool] = {}
        for word in words:
            for name in expand_word(word):
                changes[CAPABILITY_WORDS[name]] = value
        return self.model_copy(update=changes)


def expand_word(word: str) -> tuple[str, ...]:
    """The switch words one word names: itself, or a group's members (``elicitation``).

    Raises:
        UsageError: The word names no capability.
    """
    key = word.strip().lower()
    if key in GROUP_WORDS:
        return GROUP_WORDS[key]
    if key in CAPABILITY_WORDS:
        return (key,)
    known = ", ".join([*CAPABILITY_WORDS, *GROUP_WORDS])
    raise UsageError(f"Unknown client capability {word!r}.", hint=f"use one of: {known}")


ALL_ON = ClientCapabilitySwitches()
"""Every capability advertised (the default)."""
