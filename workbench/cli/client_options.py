"""What an MCP connection tells the server about this client: capability switches and roots, on the command line.

``--no-sampling``, ``--no-sampling-tools``, ``--no-elicitation[=form|url]``, ``--no-roots``, ``--no-tasks``
and ``--no-apps`` turn one capability off; ``--client-capabilities LIST`` names the whole set to advertise
(``all``, ``none``, or words such as ``sampling,elicitation-form``) before those are applied.
``--root PATH_OR_URI`` (repeatable) offers a folder as a root. On ``call``, ``inspect``, ``send`` and the
other agent commands they hold for the run; on ``profile add`` and ``profile edit`` they are saved, and
``profile edit --forget-root PATH_OR_URI`` takes a saved root away.

Argparse and the option type only at import (the window starts through ``parser``); the profile types
are imported where a profile is changed.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from workbench.core.profiles import ConnectionProfile

CAPABILITY_HELP = (
    "MCP: the client capabilities to advertise, comma-separated: all (the default), none, or any of sampling, "
    "sampling-tools, elicitation (elicitation-form, elicitation-url), roots, tasks, apps; --no-* options apply after"
)


@dataclass(frozen=True, slots=True, kw_only=True)
class ClientOptions:
    """The client-capability and root options as given (empty: not given).

    Attributes:
        capabilities: ``--client-capabilities``: the words of the set to advertise (``None``: not given).
        switched_off: The capabilities ``--no-*`` turned off, as words (``elicitation-url``, ``roots`` …).
        roots: ``--root`` values, in order.
        forget_roots: ``profile edit --forget-root`` values, in order.
    """

    capabilities: str | None = None
    switched_off: tuple[str, ...] = ()
    roots: tuple[str, ...] = ()
    forget_roots: tuple[str, ...] = ()

    def given(self) -> bool:
        """Whether any of these options was given."""
        return bool(self.capabilities is not None or self.switched_off or self.roots or self.forget_roots)


def add_client_options(parser: argparse.ArgumentParser, *, editing: bool = False) -> None:
    """Add the capability switches and ``--root`` (and ``--forget-root`` when ``editing`` a saved profile)."""
    group = parser.add_argument_group("MCP client capabilities and roots")
    group.add_argument("--client-capabilities", metavar="LIST", help=CAPABILITY_HELP)
    for word, what in (
        ("sampling", "sampling (the server cannot ask for a completion)"),
        ("sampling-tools", "tools in sampling requests"),
        ("roots", "roots (the server cannot ask which folders it may use)"),
        ("tasks", "tasks (the 2026 Tasks extension; no call becomes a 2025-11-25 task)"),
        ("apps", "MCP Apps (io.modelcontextprotocol/ui)"),
    ):
        group.add_argument(
            f"--no-{word}", dest="capabilities_off", action="append_const", const=word, help=f"do not advertise {what}"
        )
    group.add_argument(
        "--no-elicitation",
        dest="capabilities_off",
        action="append",
        nargs="?",
        const="elicitation",
        type=_elicitation_mode,
        metavar="form|url",
        help="do not advertise elicitation (both modes, or only the one named)",
    )
    verb = (
        "offer this folder as a root (saved with the profile; repeatable)" if editing else "offer this folder as a root"
    )
    group.add_argument("--root", action="append", default=[], metavar="PATH_OR_URI", help=f"MCP: {verb} (repeatable)")
    if editing:
        group.add_argument(
            "--forget-root", action="append", default=[], metavar="PATH_OR_URI", help="take a saved root away"
        )


def _elicitation_mode(mode: str) -> str:
    """``--no-elicitation=form|url`` → the switch word (``call --no-elicitation TOOL`` is refused, not eaten).

    argparse also passes the bare option's ``const`` (``elicitation``: both modes) through here.
    """
    if mode == "elicitation":
        return mode
    if mode not in ("form", "url"):
        raise argparse.ArgumentTypeError(f"takes form or url (--no-elicitation=url), got {mode!r}")
    return f"elicitation-{mode}"


def root_uri(text: str) -> tuple[str, str | None]:
    """A ``--root`` value as ``(uri, name)``: a ``file://`` URI as given, or a path made absolute (``core.roots``).

    Raises:
        ConfigError: A URI that is not ``file://``.
    """
    from workbench.core.roots import root_from

    root = root_from(text)
    return root.uri, root.name


def apply_client_options(profile: ConnectionProfile, options: ClientOptions) -> ConnectionProfile:
    """``profile`` with the switches and roots of ``options`` applied (a copy, validated again).

    Raises:
        ConfigError: The profile is not an MCP one, a word names no capability, or a root to forget
            is not among the profile's.
        UsageError: A word names no capability.
    """
    from workbench.core.errors import ConfigError
    from workbench.core.profiles import A2AProfile
    from workbench.core.profiles.client_capabilities import ALL_ON, CAPABILITY_WORDS, ClientCapabilitySwitches
    from workbench.core.profiles.model import Root

    if not options.given():
        return profile
    if isinstance(profile, A2AProfile):
        raise ConfigError(
            "--root, --client-capabilities and --no-* are for MCP servers; this is an A2A agent.",
            details={"profile_kind": profile.kind},
        )
    switches = profile.client_capabilities
    if options.capabilities is not None:
        words = [w.strip() for w in options.capabilities.split(",") if w.strip()]
        if words == ["all"]:
            switches = ALL_ON
        else:
            chosen = [] if words == ["none"] else words
            switches = ClientCapabilitySwitches().without(CAPABILITY_WORDS).with_on(chosen)
    switches = switches.without(options.switched_off)
    roots = [(root.uri, root.name) for root in profile.roots]
    for text in options.forget_roots:
        uri, _name = root_uri(text)
        kept = [root for root in roots if root[0] != uri]
        if len(kept) == len(roots):
            raise ConfigError(
                f"{uri} is not among the profile's roots.",
                hint="see them with 'workbench profile list --json'",
                details={"option": "--forget-root"},
            )
        roots = kept
    for text in options.roots:
        root = root_uri(text)
        if root[0] not in [uri for uri, _ in roots]:
            roots.append(root)
    # Typed values, copied without validating the rest again: a command line's own profile may hold
    # values a saved one refuses (credential-looking headers), as its other overrides do.
    changes: dict[str, Any] = {
        "client_capabilities": switches,
        "roots": [Root(uri=uri, name=name) for uri, name in roots],
    }
    return profile.model_copy(update=changes)


def client_summary(profile: ConnectionProfile) -> str:
    """What ``profile list`` adds for an MCP profile: its roots and the capabilities it does not advertise."""
    roots = getattr(profile, "roots", None) or []
    switches = getattr(profile, "client_capabilities", None)
    off = switches.switched_off() if switches is not None else []
    named = f" [roots: {', '.join(root.uri for root in roots)}]" if roots else ""
    return named + (f" [not advertised: {', '.join(off)}]" if off else "")
