"""``workbench model add|list|remove|key``: the model endpoints that answer sampling, their keys in the keyring."""

from __future__ import annotations

import json
import sys

from pydantic import SecretStr, ValidationError

from workbench.cli.oauth_fields import read_secret_value
from workbench.cli.sampling_cli import ModelCommandOptions
from workbench.core.credentials import KeyringCredentialStore
from workbench.core.errors import ConfigError
from workbench.core.sampling.endpoints import ModelEndpoint, ModelEndpointStore


async def run_model_command(options: ModelCommandOptions) -> int:
    """Run one ``model`` command; returns the exit code (errors are raised as ``WorkbenchError``)."""
    credentials = KeyringCredentialStore()
    store = ModelEndpointStore(options.config_dir, credentials)
    if options.action == "list":
        for endpoint in store.load():
            has_key = await store.key(endpoint) is not None
            if options.json:
                print(json.dumps(endpoint.model_dump(mode="json") | {"has_key": has_key}))
            else:
                key = " [key stored]" if has_key else ""
                print(f"{endpoint.name:<20} {endpoint.api:<10} {endpoint.model} at {endpoint.base_url}{key}")
        return 0
    assert options.name is not None
    if options.action == "add":
        try:
            endpoint = ModelEndpoint(name=options.name, **options.fields)
        except ValidationError as exc:
            error = exc.errors()[0]
            where = ".".join(str(x) for x in error["loc"])
            raise ConfigError(f"Invalid model endpoint: {where}: {error['msg']}.") from None
        store.put(endpoint)
        print(f"saved model endpoint {endpoint.name} (key: workbench model key {endpoint.name})", file=sys.stderr)
        return 0
    if options.action == "remove":
        await store.remove(options.name)
        print(f"removed model endpoint {options.name}", file=sys.stderr)
        return 0
    endpoint = store.find(options.name)
    backend = credentials.backend()  # refuse before asking for the value
    value = read_secret_value(options.file, f"API key for {endpoint.name}: ")
    await store.set_key(endpoint.name, SecretStr(value))
    print(f"stored the API key of {endpoint.name} in {backend.name}", file=sys.stderr)
    if backend.warning:
        print(f"warning: {backend.warning}", file=sys.stderr)
    return 0
