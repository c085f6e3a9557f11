"""ProfileStore: the saved connection profiles, in ``profiles.json`` in the configuration directory.

The configuration directory is, in order: the ``config_dir`` argument, the ``WORKBENCH_CONFIG_DIR``
environment variable, or the platform's user config directory (``workbench.core.config_dir``). The
file looks like this::

    {"version": 1, "profiles": [{"kind": "mcp-stdio", "id": "…", "name": "…", …}, …]}

The file never holds a secret's value (profiles carry only ``SecretRef`` references). Writes are
atomic (a temporary file in the same directory, flushed, then ``os.replace``). A file that cannot be
read — bad JSON, an invalid profile, or a newer format version — raises ``ConfigError`` and is copied
to ``profiles.json.corrupt-<timestamp>`` (``.v<N>-<timestamp>`` for a newer version) before anything
replaces it, so no profile is ever lost silently. The file is small, so the methods are synchronous.
Two processes saving at once is not guarded against: the last whole write wins (never a torn one).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from workbench.core.config_dir import resolve_config_dir
from workbench.core.errors import ConfigError, NotFoundError
from workbench.core.profiles.model import PROFILE_LIST_ADAPTER, ConnectionProfile, validation_details

log = logging.getLogger(__name__)

PROFILES_FILE = "profiles.json"
PROFILES_FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class _Unreadable:
    """Why the file on disk cannot be used, and what to call its backup."""

    error: ConfigError
    backup_suffix: str


class ProfileStore:
    """Saved connection profiles in ``<config dir>/profiles.json``.

    Args:
        config_dir: The configuration directory (see ``resolve_config_dir``); tests pass a temporary one.

    Example::

        store = ProfileStore()  # the user's config directory
        store.upsert(MCPStdioProfile(name="demo", command="python", args=["-m", "workbench.demo.mcp_server"]))
        names = [p.name for p in store.load()]
    """

    def __init__(self, config_dir: str | os.PathLike[str] | None = None) -> None:
        self._dir = resolve_config_dir(config_dir)
        self._path = self._dir / PROFILES_FILE

    @property
    def path(self) -> Path:
        """The profile file's path."""
        return self._path

    # ------------------------------------------------------------------ reading

    def load(self) -> list[ConnectionProfile]:
        """Read all profiles, in file order; a missing file means none.

        Raises:
            ConfigError: The file is unreadable, not valid JSON, not a profile file, holds an invalid
                profile, or was written by a newer workbench. It has been copied aside first;
                ``details`` has ``path`` and ``backup`` (and ``errors`` for invalid profiles).
        """
        parsed = self._read()
        if isinstance(parsed, _Unreadable):
            backup = self._back_up(parsed.backup_suffix)
            parsed.error.details["backup"] = str(backup) if backup else None
            raise parsed.error
        return parsed

    def get(self, profile_id: str) -> ConnectionProfile:
        """The profile with ``profile_id``.

        Raises:
            NotFoundError: No such profile.
            ConfigError: The file cannot be read (see ``load``).
        """
        for profile in self.load():
            if profile.id == profile_id:
                return profile
        raise NotFoundError(f"No saved connection profile has the id {profile_id!r}.", details={"id": profile_id})

    def find(self, name_or_id: str) -> ConnectionProfile:
        """The profile whose id or name is ``name_or_id``: an id first, then a name only one profile has.

        Raises:
            NotFoundError: No such profile, or several have that name.
            ConfigError: The file cannot be read (see ``load``).
        """
        saved = self.load()
        for profile in saved:
            if profile.id == name_or_id:
                return profile
        named = [p for p in saved if p.name == name_or_id]
        if len(named) == 1:
            return named[0]
        if named:
            raise NotFoundError(
                f"{len(named)} profiles are named {name_or_id!r}.",
                hint="use the profile id instead (workbench profile list)",
            )
        known = ", ".join(p.name for p in saved) or "none saved"
        raise NotFoundError(f"No saved profile is called {name_or_id!r} (profiles: {known}).")

    def _read(self) -> list[ConnectionProfile] | _Unreadable:
        details: dict[str, Any] = {"path": str(self._path)}
        try:
            text = self._path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        except (OSError, UnicodeDecodeError) as exc:
            details["reason"] = type(exc).__name__
            return _Unreadable(
                ConfigError(f"The profile file {self._path} cannot be read.", hint=str(exc), details=details),
                "corrupt",
            )
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            details["reason"] = "json"
            details["line"] = exc.lineno
            return _Unreadable(
                ConfigError(
                    f"The profile file {self._path} is not valid JSON (line {exc.lineno}).",
                    hint="a copy was kept next to it; fix it or save profiles again to start afresh",
                    details=details,
                ),
                "corrupt",
            )
        version = data.get("version") if isinstance(data, dict) else None
        valid_version = type(version) is int and version >= 1  # not bool, which is an int too
        if not isinstance(data, dict) or not valid_version or not isinstance(data.get("profiles"), list):
            details["reason"] = "format"
            return _Unreadable(
                ConfigError(
                    f"The profile file {self._path} is not a workbench profile file.",
                    hint='expected {"version": 1, "profiles": [...]}; a copy was kept next to it',
                    details=details,
                ),
                "corrupt",
            )
        assert isinstance(version, int)
        if version > PROFILES_FORMAT_VERSION:
            details["reason"] = "newer-version"
            details["version"] = version
            return _Unreadable(
                ConfigError(
                    f"The profile file {self._path} was written by a newer workbench (format {version}).",
                    hint="update the workbench; a copy of the file was kept next to it",
                    details=details,
                ),
                f"v{version}",
            )
        try:
            return PROFILE_LIST_ADAPTER.validate_python(data["profiles"])
        except ValidationError as exc:
            details["reason"] = "invalid-profile"
            details["errors"] = validation_details(exc)
            first = details["errors"][0]
            return _Unreadable(
                ConfigError(
                    f"The profile file {self._path} holds an invalid profile: {'.'.join(first['loc'])}: {first['msg']}",
                    hint="a copy was kept next to it; fix it or save profiles again to start afresh",
                    details=details,
                ),
                "corrupt",
            )

    # ------------------------------------------------------------------ writing

    def save(self, profiles: Iterable[ConnectionProfile]) -> None:
        """Replace the saved profiles with ``profiles``, atomically.

        An existing file that cannot be read is copied aside first (see the module docstring).

        Raises:
            ConfigError: Two profiles share an id, the file cannot be written, or an unreadable
                existing file could not be copied aside.
        """
        items = list(profiles)
        seen: set[str] = set()
        for profile in items:
            if profile.id in seen:
                raise ConfigError(f"Two profiles share the id {profile.id!r}.", details={"id": profile.id})
            seen.add(profile.id)
        existing = self._read()
        if isinstance(existing, _Unreadable) and self._back_up(existing.backup_suffix) is None:
            raise ConfigError(
                f"The profile file {self._path} cannot be read and no copy of it could be kept; not replacing it.",
                hint="move the file away yourself, then save again",
                details={"path": str(self._path)},
            )
        document = {
            "version": PROFILES_FORMAT_VERSION,
            "profiles": [p.model_dump(mode="json") for p in items],
        }
        self._write_atomically(json.dumps(document, indent=2, ensure_ascii=False) + "\n")

    def upsert(self, profile: ConnectionProfile) -> None:
        """Add ``profile``, or replace the saved profile with the same id (keeping its position).

        Raises:
            ConfigError: The existing file cannot be read (it is copied aside first), or written.
        """
        profiles = self.load()
        for index, old in enumerate(profiles):
            if old.id == profile.id:
                profiles[index] = profile
                break
        else:
            profiles.append(profile)
        self.save(profiles)

    def delete(self, profile_id: str) -> None:
        """Remove the profile with ``profile_id``.

        Raises:
            NotFoundError: No such profile.
            ConfigError: The file cannot be read or written.
        """
        profiles = self.load()
        kept = [p for p in profiles if p.id != profile_id]
        if len(kept) == len(profiles):
            raise NotFoundError(f"No saved connection profile has the id {profile_id!r}.", details={"id": profile_id})
        self.save(kept)

    def _write_atomically(self, text: str) -> None:
        try:
            self._dir.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd, tmp_name = tempfile.mkstemp(prefix=f".{PROFILES_FILE}.", suffix=".tmp", dir=self._dir)
        except OSError as exc:
            raise ConfigError(
                f"Cannot write profiles to {self._dir}.", hint=str(exc), details={"path": str(self._path)}
            ) from exc
        tmp = Path(tmp_name)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:  # mkstemp made it 0600
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self._path)
        except BaseException as exc:
            with contextlib.suppress(OSError):
                tmp.unlink()
            if isinstance(exc, OSError):
                raise ConfigError(
                    f"Cannot write profiles to {self._path}.", hint=str(exc), details={"path": str(self._path)}
                ) from exc
            raise
        self._fsync_dir()

    def _fsync_dir(self) -> None:
        # Makes the rename durable on POSIX; directories cannot be opened this way on Windows.
        if os.name != "posix":
            return
        try:
            dir_fd = os.open(self._dir, os.O_RDONLY)
        except OSError:
            return
        try:
            os.fsync(dir_fd)
        except OSError:
            pass
        finally:
            os.close(dir_fd)

    def _back_up(self, suffix: str) -> Path | None:
        """Copy the current file to ``<file>.<suffix>-<timestamp>`` unless an identical copy exists."""
        try:
            content = self._path.read_bytes()
        except OSError:
            return None
        for old in sorted(self._dir.glob(f"{PROFILES_FILE}.{suffix}-*")):
            with contextlib.suppress(OSError):
                if old.read_bytes() == content:
                    return old
        stamp = time.strftime("%Y%m%dT%H%M%S")
        backup = self._dir / f"{PROFILES_FILE}.{suffix}-{stamp}"
        counter = 1
        while backup.exists():
            counter += 1
            backup = self._dir / f"{PROFILES_FILE}.{suffix}-{stamp}-{counter}"
        try:
            fd = os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(content)
        except OSError:
            log.warning("could not back up the unreadable profile file %s", self._path, exc_info=True)
            return None
        log.warning("kept a copy of the unreadable profile file %s as %s", self._path, backup)
        return backup
