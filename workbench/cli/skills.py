"""``workbench skills list`` and ``skills show NAME``: an MCP server's skills, a SKILL.md printed only once verified."""

from __future__ import annotations

from workbench.cli.options import SkillsListOptions, SkillsShowOptions
from workbench.cli.render import print_error, print_json
from workbench.cli.terminal import STDERR, STDOUT
from workbench.core.errors import NotFoundError
from workbench.core.protocols.contract import RemoteAgent
from workbench.core.safe_text import neutralise, neutralise_line

EXIT_OK, EXIT_USAGE = 0, 2


async def run_skills(agent: RemoteAgent, options: SkillsListOptions | SkillsShowOptions) -> int:
    """List the skills, or print one skill's ``SKILL.md``; returns the exit code.

    ``show`` prints ``SKILL.md`` on stdout exactly as verified (peer text made inert), what it is and
    where from on stderr; with ``--json``, one object with the entry and the text.

    Raises:
        WorkbenchError: The server serves no skills, or the skill failed verification (its code
            names how: ``skill-size-mismatch``, ``skill-digest-mismatch``, ``skill-frontmatter-mismatch``).
    """
    features = agent.server_features
    assert features is not None  # _check_usage let only MCP targets through
    skills = features.skills
    as_json = options.output.json
    if isinstance(options, SkillsListOptions):
        listed = await skills.list()
        for spec in listed:
            if as_json:
                print_json(spec.to_dict())
                continue
            state = f"  [cannot be loaded: {spec.problem}]" if spec.problem else "  [dynamic]" if spec.dynamic else ""
            print(neutralise_line(f"{spec.name}  {spec.uri}{state}"), file=STDOUT)
            print(neutralise_line(f"    {spec.description}"), file=STDOUT)
        if not listed and not as_json:
            print(f"[workbench] {agent.name!r} lists no skills", file=STDERR)
        return EXIT_OK
    try:
        loaded = await skills.load(options.skill)
    except NotFoundError as exc:  # a name the server does not list, like call with a missing tool
        print_error(exc, as_json=as_json)
        return EXIT_USAGE
    if as_json:
        print_json(loaded.to_dict())
        return EXIT_OK
    spec = loaded.spec
    checked = "size, sha256 and frontmatter match its entry" if loaded.verified else "dynamic: frontmatter only"
    print(neutralise_line(f"[workbench] skill {spec.name} ({spec.uri}) from {agent.name}: {checked}"), file=STDERR)
    print(neutralise(loaded.text), end="" if loaded.text.endswith("\n") else "\n", file=STDOUT, flush=True)
    return EXIT_OK
