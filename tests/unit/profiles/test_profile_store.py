"""The profile store: where it lives, the file format, atomic writes, and unreadable files kept safe."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import platformdirs
import pytest

from workbench.core.config_dir import APP_NAME, CONFIG_DIR_ENV, resolve_config_dir
from workbench.core.errors import ConfigError, NotFoundError
from workbench.core.profiles import A2AProfile, MCPHTTPProfile, MCPStdioProfile, SecretRef
from workbench.core.profiles.secret_values import resolve_secrets
from workbench.core.profiles.store import PROFILES_FILE, ProfileStore

SECRET_VALUES = {"gh-token": "ghp_SECRET111111", "http-token": "SECRET-bearer-2222", "a2a-token": "SECRET-a2a-3333"}


def sample_profiles() -> list[MCPStdioProfile | MCPHTTPProfile | A2AProfile]:
    return [
        MCPStdioProfile(
            id="stdio",
            name="stdio server",
            command="python",
            args=["-m", "srv"],
            secrets=[SecretRef(kind="env", name="GITHUB_TOKEN", key="gh-token")],
        ),
        MCPHTTPProfile(
            id="http",
            name="http server",
            url="http://127.0.0.1:9/mcp",
            headers={"X-Trace": "1"},
            secrets=[SecretRef(kind="bearer", key="http-token")],
        ),
        A2AProfile(
            id="a2a", name="agent", url="http://127.0.0.1:9/", secrets=[SecretRef(kind="bearer", key="a2a-token")]
        ),
    ]


def backups(directory: Path, suffix: str = "corrupt") -> list[Path]:
    return sorted(directory.glob(f"{PROFILES_FILE}.{suffix}-*"))


# ------------------------------------------------------------------ where


def test_the_config_dir_comes_from_the_argument_then_the_env_var_then_the_platform(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "from-env"))
    assert resolve_config_dir(tmp_path / "explicit") == tmp_path / "explicit"
    assert resolve_config_dir() == tmp_path / "from-env"
    monkeypatch.delenv(CONFIG_DIR_ENV)
    assert resolve_config_dir() == Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def test_a_store_without_an_argument_uses_the_env_var(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path))
    store = ProfileStore()
    store.save(sample_profiles())
    assert store.path == tmp_path / PROFILES_FILE
    assert store.path.exists()


# ------------------------------------------------------------------ format


def test_a_missing_file_means_no_profiles_and_creates_nothing(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path / "not-yet")
    assert store.load() == []
    assert not (tmp_path / "not-yet").exists()


def test_saved_profiles_load_back_equal_and_in_order(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path / "cfg")
    profiles = sample_profiles()
    store.save(profiles)
    assert store.load() == profiles
    assert ProfileStore(tmp_path / "cfg").load() == profiles


def test_the_file_is_versioned_json_with_a_profile_list(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    store.save(sample_profiles())
    document = json.loads(store.path.read_text(encoding="utf-8"))
    assert document["version"] == 1
    assert [p["kind"] for p in document["profiles"]] == ["mcp-stdio", "mcp-http", "a2a"]


@pytest.mark.asyncio
async def test_secret_values_never_reach_the_file_only_their_references(tmp_path: Path) -> None:
    async def resolve(ref: SecretRef) -> str | None:
        return SECRET_VALUES[ref.key]

    store = ProfileStore(tmp_path)
    profiles = sample_profiles()
    resolved = [await resolve_secrets(p, resolve) for p in profiles]  # what connecting would use
    store.save(profiles)
    store.upsert(profiles[1].with_changes(name="renamed"))
    text = store.path.read_text(encoding="utf-8")
    for value in SECRET_VALUES.values():
        assert value not in text
        assert value not in repr(resolved)
    for key in SECRET_VALUES:
        assert f'"key": "{key}"' in text
    assert resolved[0].env == {"GITHUB_TOKEN": SECRET_VALUES["gh-token"]}


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_the_file_is_private_to_the_user(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path / "new")
    store.save(sample_profiles())
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == 0o700


# ------------------------------------------------------------------ editing


def test_upsert_replaces_in_place_and_appends_new_ones(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    first, second, third = sample_profiles()
    store.save([first, second])
    store.upsert(first.with_changes(name="changed"))
    store.upsert(third)
    assert [(p.id, p.name) for p in store.load()] == [("stdio", "changed"), ("http", "http server"), ("a2a", "agent")]


def test_get_and_delete_find_profiles_by_id(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    store.save(sample_profiles())
    assert store.get("http").name == "http server"
    store.delete("http")
    assert [p.id for p in store.load()] == ["stdio", "a2a"]
    with pytest.raises(NotFoundError):
        store.get("http")
    with pytest.raises(NotFoundError):
        store.delete("http")


def test_two_profiles_with_one_id_are_not_saved(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    profile = sample_profiles()[0]
    with pytest.raises(ConfigError):
        store.save([profile, profile.with_changes(name="twin")])
    assert not store.path.exists()


# ------------------------------------------------------------------ atomic writes


def test_a_failed_write_leaves_the_old_file_intact_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ProfileStore(tmp_path)
    store.save(sample_profiles())
    before = store.path.read_bytes()

    def failing_replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(ConfigError) as exc:
        store.save(sample_profiles()[:1])
    assert exc.value.code == "config"
    monkeypatch.undo()
    assert store.path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [PROFILES_FILE]


def test_a_write_interrupted_before_the_rename_never_shows_a_partial_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = ProfileStore(tmp_path)
    store.save(sample_profiles())
    before = store.path.read_bytes()
    seen_during_write: list[bytes] = []

    def interrupted_fsync(fd: int) -> None:
        seen_during_write.append(store.path.read_bytes())  # the new text is written, not yet renamed
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted_fsync)
    with pytest.raises(KeyboardInterrupt):
        store.save(sample_profiles()[:1])
    monkeypatch.undo()
    assert seen_during_write == [before]
    assert store.path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == [PROFILES_FILE]


# ------------------------------------------------------------------ unreadable files


def test_a_corrupt_file_raises_a_config_error_and_is_copied_aside_untouched(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    store.path.write_text('{"version": 1, "profiles": [', encoding="utf-8")
    with pytest.raises(ConfigError) as exc:
        store.load()
    assert exc.value.code == "config"
    assert exc.value.details["reason"] == "json"
    (backup,) = backups(tmp_path)
    assert exc.value.details["backup"] == str(backup)
    assert backup.read_text(encoding="utf-8") == '{"version": 1, "profiles": ['
    assert store.path.read_text(encoding="utf-8") == '{"version": 1, "profiles": ['


def test_loading_a_corrupt_file_twice_keeps_one_copy(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    store.path.write_text("not json", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ConfigError):
            store.load()
    assert len(backups(tmp_path)) == 1


def test_saving_over_a_corrupt_file_keeps_a_copy_of_it_first(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    store.path.write_text("garbage that was once profiles", encoding="utf-8")
    store.save(sample_profiles())  # no load() before: the copy must still be made
    (backup,) = backups(tmp_path)
    assert backup.read_text(encoding="utf-8") == "garbage that was once profiles"
    assert store.load() == sample_profiles()


@pytest.mark.parametrize(
    "text",
    ["[1, 2, 3]", '{"profiles": []}', '{"version": true, "profiles": []}', '{"version": 0, "profiles": []}',
     '{"version": 1, "profiles": {}}'],
)  # fmt: skip
def test_a_file_that_is_json_but_not_a_profile_file_is_refused(tmp_path: Path, text: str) -> None:
    store = ProfileStore(tmp_path)
    store.path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as exc:
        store.load()
    assert exc.value.details["reason"] == "format"
    assert len(backups(tmp_path)) == 1


def test_an_invalid_profile_in_the_file_is_reported_without_its_values(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    leaked = "Bearer SECRET-typed-by-hand-4444"
    bad = {"kind": "mcp-http", "id": "x", "name": "x", "url": "http://h/mcp", "headers": {"Authorization": leaked}}
    store.path.write_text(json.dumps({"version": 1, "profiles": [bad]}), encoding="utf-8")
    with pytest.raises(ConfigError) as exc:
        store.load()
    assert exc.value.details["reason"] == "invalid-profile"
    assert [e["type"] for e in exc.value.details["errors"]] == ["plaintext_secret"]
    assert "SECRET-typed-by-hand" not in json.dumps(exc.value.to_dict())
    assert "SECRET-typed-by-hand" not in str(exc.value)


def test_a_file_from_a_newer_workbench_is_refused_and_kept_before_any_save(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    newer = json.dumps({"version": 2, "profiles": [], "groups": []})
    store.path.write_text(newer, encoding="utf-8")
    with pytest.raises(ConfigError) as exc:
        store.load()
    assert exc.value.details["reason"] == "newer-version"
    assert exc.value.details["version"] == 2
    store.save(sample_profiles())
    (backup,) = backups(tmp_path, "v2")
    assert backup.read_text(encoding="utf-8") == newer
    assert backups(tmp_path) == []
