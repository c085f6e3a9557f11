"""RFC 6570 resource templates through the MCP SDK's ``UriTemplate``: variable names and expansion.

The SDK expands levels 1–3 and the path-like explode modifiers (``{/var*}``, ``{.var*}``, ``{;var*}``).
It rejects what it cannot also match on a server: the prefix modifier ``{var:N}``, query explode,
repeated variables and invalid names. Those templates raise ``ProtocolError`` here instead of expanding
to a wrong URI.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from mcp.shared.uri_template import InvalidUriTemplate, UriTemplate

from workbench.core.errors import ProtocolError

__all__ = ["expand_uri_template", "uri_template_variables"]


@lru_cache(maxsize=256)
def _parse(template: str) -> UriTemplate:
    try:
        return UriTemplate.parse(template)
    except InvalidUriTemplate as exc:
        details: dict[str, object] = {"template": template, "reason": str(exc)}
        if exc.position is not None:
            details["position"] = exc.position
        raise ProtocolError(
            "The server's URI template cannot be expanded",
            hint="The workbench expands RFC 6570 levels 1-3 and {/var*}, {.var*}, {;var*}; "
            "prefixes ({var:N}), query explode and repeated variables are not supported",
            details=details,
        ) from exc


def uri_template_variables(template: str) -> list[str]:
    """List the variable names of an RFC 6570 template, in order of appearance.

    Args:
        template: A resource template's ``uriTemplate`` as the server sent it.

    Returns:
        The variable names (each once: the SDK rejects repeats).

    Raises:
        ProtocolError: The template is malformed or uses a feature the SDK does not expand.
    """
    return _parse(template).variable_names


def expand_uri_template(template: str, values: Mapping[str, str | Sequence[str]]) -> str:
    """Expand an RFC 6570 template.

    A name missing from ``values`` is undefined and left out; an empty string is defined, so
    ``{?x,y}`` with ``x=""`` and ``y="1"`` gives ``?x=&y=1`` (RFC 6570 section 3.2.8).

    Args:
        template: A resource template's ``uriTemplate`` as the server sent it.
        values: Variable values by name (a list of strings for an explode variable such as ``{/path*}``).

    Returns:
        The URI, percent-encoded as the template's operators say.

    Raises:
        ProtocolError: The template is malformed or uses a feature the SDK does not expand.
    """
    return _parse(template).expand(values)
