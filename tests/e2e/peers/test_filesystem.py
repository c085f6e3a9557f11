"""``workbench inspect`` and ``call`` against server-filesystem, a tmp folder as its allowed root."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.peers import peer_command, run_cli

pytestmark = pytest.mark.asyncio


@pytest.fixture
def root(tmp_path: Path) -> Path:
    """The one folder the server may touch: a text file and a subfolder."""
    (tmp_path / "notes.txt").write_text("hello from the peer test\n", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    return tmp_path


def server(root: Path) -> list[str]:
    return [*peer_command("filesystem"), str(root)]


async def test_inspect_lists_the_filesystem_tools_in_text_and_json(root: Path) -> None:
    run = await run_cli("filesystem", "inspect", server=server(root))
    assert run.code == 0, run.err
    assert run.err == ""
    assert "secure-filesystem-server" in run.out
    assert "  read_text_file  Read the complete contents" in run.out
    run = await run_cli("filesystem", "inspect", "--json", server=server(root))
    assert run.code == 0, run.err
    [info] = run.json_lines()
    names = {tool["name"] for tool in info["tools"]}
    assert {"list_directory", "read_text_file", "write_file", "list_allowed_directories"} <= names


async def test_call_lists_and_reads_files_in_the_allowed_root(root: Path) -> None:
    run = await run_cli("filesystem", "call", "list_directory", "--args", f'{{"path": "{root}"}}', server=server(root))
    assert run.code == 0, run.err
    assert run.err == ""
    assert "[FILE] notes.txt" in run.out and "[DIR] sub" in run.out
    path = root / "notes.txt"
    run = await run_cli("filesystem", "call", "read_text_file", "--args", f'{{"path": "{path}"}}', server=server(root))
    assert run.code == 0, run.err
    # printed as it is: the file's last newline not doubled, its structured twin {"content": TEXT} not repeated
    assert run.out == "hello from the peer test\n"


async def test_an_image_is_summarised_not_dumped_as_base64(root: Path) -> None:
    image = root / "pixel.png"
    image.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)  # read as bytes; never decoded
    run = await run_cli(
        "filesystem", "call", "read_media_file", "--args", f'{{"path": "{image}"}}', server=server(root)
    )
    assert run.code == 0, run.err
    text, structured = run.out.splitlines()
    assert text == "[image image/png 1032 bytes]"
    assert structured.startswith('structured: {"content": [{"type": "image", "data": "iVBORw0KGgo')
    assert '… (1376 characters)", "mimeType": "image/png"}]}' in structured and len(structured) < 250


async def test_a_path_outside_the_root_is_the_tools_error_and_exit_1(root: Path) -> None:
    run = await run_cli(
        "filesystem", "call", "read_text_file", "--args", '{"path": "/etc/hostname"}', server=server(root)
    )
    assert run.code == 1
    assert run.out.startswith("tool reported an error:\n")
    assert "outside allowed directories" in run.out
