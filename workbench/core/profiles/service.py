"""ProfileService: the use cases on saved profiles and their secrets that the window and the command line share.

- ``save``: a profile with its new secret values. Values go to the credential store first, then the
  profile is saved; when either fails, the values written are rolled back (the previous value of a key
  put back, a new key deleted) and the profile file is left as it was. Secrets the profile no longer
  refers to are forgotten afterwards, unless another profile still refers to them (a duplicate shares
  its original's keys).
- ``add``: a new profile under a name no saved profile has (the command line finds profiles by name);
  ``put`` adds or replaces one without secret changes; ``duplicate`` saves a copy that shares its
  original's secrets.
- ``remove``: the credentials first (secret values no other profile refers to, the OAuth login), then
  the profile. In this order a failure never leaves a secret behind that nothing refers to: the
  profile is the only index of its keys, so while any of them could not be forgotten the profile stays,
  and removing it again retries them. The other order could leave values in the keyring that no
  profile names and nothing would ever find or forget.
- ``rename``: a new name that no other profile has. Secrets are stored under the profile's id, which a
  rename keeps, so they stay where they are and still resolve.
- ``allow_origin`` / ``without_origins``: the origins besides the profile's URL that may receive its
  credentials.
- ``set_secret`` / ``clear_secrets``: one secret of a saved profile (the command line's ``secret set``
  and ``secret clear``), with ``save``'s rollback.

The service is Qt-free and stateless: it holds the profile store and the credential store it works on.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field

from pydantic import SecretStr, ValidationError

from workbench.core.credentials import CredentialStore
from workbench.core.errors import ConfigError, NotFoundError, WorkbenchError
from workbench.core.http.origins import origin_of
from workbench.core.profiles.credential_keys import (
    a2a_dpop_key,
    oauth_client_key_key,
    oauth_client_secret_key,
    oauth_dpop_keys,
    oauth_keys,
    oauth_secret_keys,
    secret_key,
    unused_oauth_secret_keys,
)
from workbench.core.profiles.model import (
    A2AProfile,
    ConnectionProfile,
    names_oauth_client,
    new_profile_id,
    uses_oauth,
    validation_details,
)
from workbench.core.profiles.secret_refs import SecretKind, SecretRef
from workbench.core.profiles.store import ProfileStore

log = logging.getLogger(__name__)

CredentialFailure = tuple[str, WorkbenchError]
"""A credential-store step that failed: what was being done (``forgetting the secret 'k'``), and why."""


@dataclass(frozen=True, slots=True)
class SecretChanges:
    """What the credential store must do when a profile is saved.

    Attributes:
        store: Values to store, by credential-store key (``SecretStr``: their repr is ``**********``).
        forget: Keys the profile referred to before and no longer does.
    """

    store: Mapping[str, SecretStr] = field(default_factory=dict)
    forget: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.store or self.forget)


class ProfileService:
    """Saves, removes and renames profiles together with what they keep in the credential store.

    Args:
        profiles: Where the profiles are saved.
        credentials: Where their secret values (and OAuth logins) live.

    Example::

        service = ProfileService(ProfileStore(), KeyringCredentialStore())
        await service.save(profile, SecretChanges(store={secret_key(profile.id, SecretKind.BEARER): token}))
    """

    def __init__(self, profiles: ProfileStore, credentials: CredentialStore) -> None:
        self._profiles = profiles
        self._credentials = credentials

    # ------------------------------------------------------------------ queries

    def saved(self) -> list[ConnectionProfile]:
        """Every saved profile, in file order.

        Raises:
            ConfigError: The profile file cannot be read (see ``ProfileStore.load``).
        """
        return self._profiles.load()

    def find(self, name_or_id: str) -> ConnectionProfile:
        """The saved profile whose id or name is ``name_or_id`` (see ``ProfileStore.find``).

        Raises:
            NotFoundError: No such profile, or the name is ambiguous.
            ConfigError: The profile file cannot be read.
        """
        return self._profiles.find(name_or_id)

    # ------------------------------------------------------------------ saving

    async def save(
        self,
        profile: ConnectionProfile,
        changes: SecretChanges | None = None,
        *,
        persist: bool = True,
        shown: Iterable[ConnectionProfile] = (),
    ) -> list[CredentialFailure]:
        """Store ``changes.store``, save ``profile`` (add or replace), then forget ``changes.forget``.

        When the credential store refuses a value (no secure keyring, a locked one) or the profile
        cannot be written, every value already written is rolled back and the error is raised: a
        saved profile never refers to a value the store does not hold, and the values of the profile
        as it was saved before are kept.

        Args:
            profile: The profile to save.
            changes: Secret values to store and keys to forget (none by default).
            persist: Save the profile in the profile file (``False``: a profile shown for this session
                only; its values are still stored).
            shown: Profiles that are not saved but refer to keys too (the window's session-only ones):
                their keys are not forgotten.

        Returns:
            The keys that could not be forgotten (the profile is saved; the store keeps those values).

        Raises:
            SecureStorageUnavailableError: The credential store refused a value; nothing was saved.
            ConfigError: The profile file cannot be read or written; nothing was saved.
        """
        changes = changes or SecretChanges()
        previous: dict[str, SecretStr | None] = {}
        try:
            for key, value in changes.store.items():
                before = await self._credentials.get(key)
                await self._credentials.set(key, value)
                previous[key] = before
            if persist:
                self._profiles.upsert(profile)
        except WorkbenchError:
            await self._roll_back(previous)
            raise
        in_use = self._keys_in_use(profile.id, [profile, *shown])
        return await self._forget_keys(changes.forget, in_use)

    async def save_oauth_client(
        self, profile: ConnectionProfile, secret: SecretStr | None = None, *, new: bool = False
    ) -> ConnectionProfile:
        """Save ``profile`` with its OAuth client: a pre-registered client's secret stored, an unused one forgotten.

        The other OAuth secrets kept in the store that the profile no longer uses (a ``private_key_jwt`` key
        once it names a key file, a grant's token once it names a file or uses another grant) are forgotten.

        Args:
            profile: The profile (``oauth_client`` says who the client is).
            secret: The pre-registered client's secret (``None``: keep the stored one).
            new: The profile is new: its name must be free.

        Returns:
            The profile as saved.

        Raises:
            ConfigError: The name is taken (``new``) or the profile file cannot be written.
            SecureStorageUnavailableError: No secure keyring; nothing was stored or saved.
        """
        if new:
            self._check_name_free(profile.name, except_id=None)
        key = oauth_client_secret_key(profile.id)
        pre_registered = names_oauth_client(profile) and getattr(profile, "oauth_client", "") == "pre-registered"
        if pre_registered and getattr(profile, "oauth_token_auth", "") != "none":
            changes = SecretChanges(store={key: secret} if secret is not None else {})
        else:
            changes = SecretChanges(forget=(key,))
        unused = tuple(k for k in unused_oauth_secret_keys(profile) if k not in changes.forget)
        changes = SecretChanges(store=changes.store, forget=(*changes.forget, *unused))
        await self.save(profile, changes)
        return profile

    def put(self, profile: ConnectionProfile) -> None:
        """Add ``profile``, or replace the saved one with its id, without secret changes (``save`` makes those).

        Raises:
            ConfigError: The profile file cannot be read or written.
        """
        self._profiles.upsert(profile)

    def duplicate(self, profile: ConnectionProfile) -> ConnectionProfile:
        """Save a copy of ``profile`` under a new id, named "<name> (copy)".

        The copy refers to the same secret keys as the original: ``remove`` keeps a value while
        either still refers to it.

        Raises:
            ConfigError: The profile file cannot be read or written.
        """
        copy = profile.with_changes(id=new_profile_id(), name=f"{profile.name} (copy)"[:200])
        self._profiles.upsert(copy)
        return copy

    def add(self, profile: ConnectionProfile) -> ConnectionProfile:
        """Save a new profile under a name no saved profile has.

        Raises:
            ConfigError: A profile with that name exists, or the profile file cannot be read or written.
        """
        self._check_name_free(profile.name, except_id=None)
        self._profiles.upsert(profile)
        return profile

    async def set_secret(
        self, profile: ConnectionProfile, kind: SecretKind, name: str, value: SecretStr
    ) -> ConnectionProfile:
        """Store ``value`` and make ``profile`` refer to it (replacing a secret that fills the same target).

        Returns:
            The profile as saved.

        Raises:
            ConfigError: The secret does not fit the profile (e.g. ``env`` for an HTTP server), or the
                profile file cannot be written (the value is rolled back).
            SecureStorageUnavailableError: No secure keyring; nothing was stored or saved.
        """
        try:
            ref = SecretRef(kind=kind, name=name, key=secret_key(profile.id, kind, name))
        except ValidationError as exc:
            raise ConfigError(
                f"Invalid secret: {validation_details(exc)[0]['msg']}", details={"errors": validation_details(exc)}
            ) from None
        kept = [r for r in profile.secrets if r.target.lower() != ref.target.lower()]
        try:
            updated = profile.with_changes(secrets=[*(r.model_dump() for r in kept), ref.model_dump()])
        except ValidationError as exc:
            raise ConfigError(
                f"This secret does not fit the profile: {validation_details(exc)[0]['msg']}",
                details={"errors": validation_details(exc)},
            ) from None
        await self.save(updated, SecretChanges(store={ref.key: value}))
        return updated

    async def clear_secrets(
        self, profile: ConnectionProfile, kind: SecretKind | None = None, name: str = ""
    ) -> tuple[ConnectionProfile, int]:
        """Forget the profile's secrets (all, or those of ``kind`` [and ``name``]).

        The values go first, then the profile is saved without the references whose values went (a
        value another profile still refers to stays in the store). Every secret is tried; the profile
        keeps referring to those the store refused to forget, so that they can still be found.

        Returns:
            The profile as saved, and how many secrets it no longer refers to.

        Raises:
            SecureStorageUnavailableError: The keyring refused to forget a value (the others went).
            ConfigError: The profile file cannot be written.
        """
        chosen = [r for r in profile.secrets if (kind is None or r.kind is kind) and (not name or r.name == name)]
        rest = profile.with_changes(secrets=[r.model_dump() for r in profile.secrets if r not in chosen])
        in_use = self._keys_in_use(profile.id, [rest])
        failures: list[CredentialFailure] = []
        gone: list[SecretRef] = []
        for ref in chosen:
            failed = await self._forget_keys([ref.key], in_use)
            failures.extend(failed)
            if not failed:
                gone.append(ref)
        updated = profile.with_changes(secrets=[r.model_dump() for r in profile.secrets if r not in gone])
        if gone:
            self._profiles.upsert(updated)
        if failures:
            raise failures[0][1]
        return updated, len(gone)

    # ------------------------------------------------------------------ removing, renaming

    async def remove(
        self, profile: ConnectionProfile, *, persisted: bool = True, shown: Iterable[ConnectionProfile] = ()
    ) -> None:
        """Forget what the credential store holds for ``profile``, then delete the saved profile.

        Every credential is tried even when an earlier one fails; while any failed, the profile stays
        saved (see the module docstring for why this order). A profile already gone from the file
        (removed elsewhere) is not an error.

        Args:
            profile: The profile to remove.
            persisted: Whether it is saved (``False``: a session-only profile; only its credentials go).
            shown: Profiles that are not saved but refer to keys too: those values are kept.

        Raises:
            SecureStorageUnavailableError: A credential could not be forgotten; the profile is kept.
            ConfigError: The profile file cannot be read or written.
        """
        failures = await self._forget_credentials(profile, self._keys_in_use(profile.id, shown))
        if failures:
            raise failures[0][1]
        if not persisted:
            return
        try:
            self._profiles.delete(profile.id)
        except NotFoundError:
            log.info("profile %r was already gone from the profile file", profile.id)

    def rename(self, profile_id: str, name: str) -> ConnectionProfile:
        """Give the saved profile ``profile_id`` the name ``name`` (its id, and so its secrets' keys, stay).

        Returns:
            The profile as saved.

        Raises:
            NotFoundError: No such profile.
            ConfigError: Another profile has that name, the name is not valid, or the file cannot be
                read or written.
        """
        profile = self._profiles.get(profile_id)
        if name == profile.name:
            return profile
        self._check_name_free(name, except_id=profile_id)
        try:
            renamed = profile.with_changes(name=name)
        except ValidationError as exc:
            raise ConfigError(
                f"Invalid name: {validation_details(exc)[0]['msg']}", details={"errors": validation_details(exc)}
            ) from None
        self._profiles.upsert(renamed)
        return renamed

    # ------------------------------------------------------------------ allowed origins

    def allow_origin(self, profile_id: str, origin: str) -> bool:
        """Remember that the user approved ``origin`` for the credentials of profile ``profile_id``.

        Returns:
            ``False`` when no saved profile has that id, or it is not reached over HTTP (nothing saved).

        Raises:
            ConfigError: The file cannot be read or written, or ``origin`` is not an http(s) origin.
        """
        try:
            profile = self._profiles.get(profile_id)
        except NotFoundError:
            return False
        origins = getattr(profile, "allowed_origins", None)
        if origins is None:
            return False
        if origin not in origins:
            try:
                updated = profile.with_changes(allowed_origins=[*origins, origin])
            except ValueError as exc:
                raise ConfigError(f"{origin!r} is not an http(s) origin.", details={"origin": origin}) from exc
            self._profiles.upsert(updated)
        return True

    @staticmethod
    def without_origins(profile: ConnectionProfile, origins: Collection[str]) -> ConnectionProfile:
        """``profile`` no longer allowing ``origins`` to receive its credentials (a copy; nothing is saved).

        Raises:
            ConfigError: One of ``origins`` is not among the profile's allowed origins.
        """
        if not origins:
            return profile
        allowed = list(getattr(profile, "allowed_origins", None) or [])
        unknown = [origin for origin in origins if _origin(origin) not in allowed]
        if unknown:
            raise ConfigError(
                f"{unknown[0]} is not an allowed origin of {profile.name!r}.",
                hint="workbench profile list shows them",
                details={"option": "--forget-origin", "allowed": allowed},
            )
        forget = {_origin(origin) for origin in origins}
        return profile.with_changes(allowed_origins=[o for o in allowed if o not in forget])

    # ------------------------------------------------------------------ internals

    def _check_name_free(self, name: str, *, except_id: str | None) -> None:
        if any(p.name == name and p.id != except_id for p in self.saved()):
            raise ConfigError(
                f"A profile called {name!r} exists already.",
                hint="remove it first or pick another name",
                details={"name": name},
            )

    def _keys_in_use(self, except_id: str, shown: Iterable[ConnectionProfile]) -> set[str] | None:
        """Keys the saved profiles other than ``except_id``, and ``shown``, refer to.

        ``None`` when the saved profiles cannot be read: then no key can be told unused.
        """
        try:
            saved = self._profiles.load()
        except WorkbenchError:
            return None
        profiles = [p for p in saved if p.id != except_id] + list(shown)
        return {ref.key for p in profiles for ref in p.secrets}

    async def _forget_keys(self, keys: Iterable[str], in_use: set[str] | None) -> list[CredentialFailure]:
        """Delete ``keys`` that nothing in ``in_use`` refers to (none when ``in_use`` is ``None``)."""
        failures: list[CredentialFailure] = []
        if in_use is None:
            return failures  # cannot tell which keys are shared: keeping a value is safer than breaking a profile
        for key in keys:
            if key in in_use:
                continue
            try:
                await self._credentials.delete(key)
            except WorkbenchError as exc:
                failures.append((f"forgetting the secret {key!r}", exc))
        return failures

    async def _forget_credentials(self, profile: ConnectionProfile, in_use: set[str] | None) -> list[CredentialFailure]:
        """Delete the profile's secret values (those not in use elsewhere) and its OAuth login."""
        failures = await self._forget_keys([ref.key for ref in profile.secrets], in_use)
        keys: tuple[str, ...] = ()
        if uses_oauth(profile):
            keys = (*oauth_keys(profile.id), *oauth_secret_keys(profile.id), *oauth_dpop_keys(profile.id))
        elif isinstance(profile, A2AProfile):  # its OAuth client's secret or key, its DPoP key
            keys = (oauth_client_secret_key(profile.id), oauth_client_key_key(profile.id), a2a_dpop_key(profile.id))
        for key in keys:
            try:
                await self._credentials.delete(key)
            except WorkbenchError as exc:
                failures.append(("forgetting the OAuth login", exc))
                break  # the store refused; the next key would be refused alike
        return failures

    async def _roll_back(self, previous: Mapping[str, SecretStr | None]) -> None:
        """Put back the values ``save`` replaced (deleting keys that had none); best effort."""
        for key, value in previous.items():
            try:
                if value is None:
                    await self._credentials.delete(key)
                else:
                    await self._credentials.set(key, value)
            except WorkbenchError:
                log.warning("could not roll back the secret %r after a failed save", key, exc_info=True)


def _origin(url: str) -> str:
    """``url``'s origin as profiles keep it (``scheme://host:port``), or ``url`` itself when it has none."""
    try:
        return origin_of(url)
    except ValueError:
        return url
