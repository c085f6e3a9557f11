"""The command-line hint that says how to pass the credential an agent refused a call without.

An auth error's ``details["credential_needs"]`` (``CredentialNeed.to_dict()``s of the agent card's
schemes) says where the credential goes; the hint repeats the command with the options that put
it there: ``--header 'X-API-Key=KEY'`` for an API key in a header, ``--header 'Cookie=name=KEY'``
for one in a cookie, ``--answer KEY`` for one in the URL's query (no option sends a query parameter
on every request), ``--header 'Authorization=Bearer TOKEN'`` otherwise. Names come from the card,
an untrusted peer: one that is not an HTTP token is never printed (``--answer KEY`` instead), and
every value is shell-quoted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from workbench.core.shell_quote import command_line

_TOKEN_RE = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$")  # RFC 9110 token: header and cookie names
_BEARER = ("--header", "Authorization=Bearer TOKEN")
_BASIC = ("--header", "Authorization=Basic BASE64-OF-USER:PASSWORD")
_BEARER_KINDS = frozenset({"http-bearer", "oauth2-client-credentials", "oauth2-authorization-code", "openid-connect"})


def _options(needs: Sequence[Mapping[str, Any]]) -> tuple[list[str], str, bool]:
    """The options passing ``needs``, the placeholder word, and whether only ``--answer`` can (a query key)."""
    options: list[str] = []
    word, by_answer = "TOKEN", False
    for need in needs:
        kind, name, where = need.get("type"), str(need.get("param_name") or ""), need.get("location")
        if kind == "api-key":
            word = "KEY"
            if where == "header" and _TOKEN_RE.match(name):
                options += ["--header", f"{name}=KEY"]
            elif where == "cookie" and _TOKEN_RE.match(name):
                options += ["--header", f"Cookie={name}=KEY"]
            else:  # in the query, or a name no option could carry: the answer goes where the card says
                by_answer = True
        elif kind == "http-basic" and _BASIC[1] not in options:
            options += _BASIC
        elif kind in _BEARER_KINDS and _BEARER[1] not in options:
            options += _BEARER
    if not options and not by_answer:
        options = list(_BEARER)
    return options, word, by_answer and not options


def pass_credential_hint(command: Sequence[str], details: Mapping[str, Any]) -> str:
    """One line saying how to run ``command`` again with the credential the agent asked for.

    Args:
        command: The command so far, e.g. ``("workbench", "send", "--a2a", URL)``; the message follows
            the line's ``…``.
        details: The auth error's details (``credential_needs`` when the agent's card declares schemes).

    Returns:
        ``pass the credential: workbench send … --header 'X-API-Key=KEY' … (or --answer KEY: used for
        this run, not stored)``, or with ``--answer KEY`` in the command when the key goes in the query.
    """
    raw = details.get("credential_needs")
    needs = [n for n in raw if isinstance(n, Mapping)] if isinstance(raw, list) else []
    options, word, by_answer = _options(needs)
    try:
        if by_answer:
            line = command_line(*command, "--answer", word)
            where = "the agent takes it in the URL's query"
            return f"pass the credential: {line} … (used for this run, not stored; {where})"
        line = command_line(*command, *options)
    except ValueError:  # a value no command line can carry (a NUL in the target)
        return f"pass the credential with --answer {word} (used for this run, not stored)"
    return f"pass the credential: {line} … (or --answer {word}: used for this run, not stored)"
