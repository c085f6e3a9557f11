"""Read-only views of the agent card an ``A2AAgent`` uses (the façade's card properties)."""

from __future__ import annotations

from typing import Any

from a2a.types import AgentCard, AgentInterface, AgentSkill

from workbench.core.errors import WorkbenchError
from workbench.core.protocols.a2a._session import Session


class CardViews:
    """The card, its JSON, where it came from and the interface in use, read from the ``Session``."""

    _session: Session

    @property
    def card(self) -> AgentCard:
        """The agent card (the extended card when it was fetched)."""
        return self._session.ensure_card()

    @property
    def card_json(self) -> dict[str, Any]:
        """The public card's JSON exactly as published."""
        return self._session.ensure_fetch().raw

    @property
    def card_url_used(self) -> str:
        """The URL the card was fetched from."""
        return self._session.ensure_fetch().url

    @property
    def card_notes(self) -> list[str]:
        """Adjustments made while reading the card (e.g. a 0.2 card spoken as 0.3)."""
        return list(self._session.ensure_fetch().notes)

    @property
    def card_warnings(self) -> list[str]:
        """What the user should check about where the card came from (``discovery.CardFetch.warnings``)."""
        return list(self._session.ensure_fetch().warnings)

    @property
    def extended_card(self) -> bool:
        """Whether ``card`` is the authenticated extended card."""
        return self._session.extended

    @property
    def extended_card_error(self) -> WorkbenchError | None:
        """Why the extended card could not be fetched, if it was tried and failed."""
        return self._session.extended_card_error

    @property
    def interface(self) -> AgentInterface:
        """The interface in use (URL, binding, protocol version)."""
        self._session.ensure_card()
        assert self._session.interface is not None
        return self._session.interface

    @property
    def skills(self) -> list[AgentSkill]:
        """The card's skills."""
        return list(self.card.skills)
