"""Agent attributes and module names that moved: the old name still answers, with a warning.

An agent class lists what moved as ``{old name: new dotted path}`` and reaches this from its
``__getattr__``, which Python calls only for names the class does not have, so current members pay
nothing. The old names are not members: they are absent from ``dir()``, from the type checker's view
and from the contract.
"""

from __future__ import annotations

import importlib
import operator
import warnings
from collections.abc import Mapping
from typing import Any


def moved_attribute(obj: object, name: str, moved: Mapping[str, str]) -> Any:
    """The value of ``name``'s new place on ``obj``, after a ``DeprecationWarning`` naming it.

    Args:
        obj: The agent asked for ``name``.
        name: The attribute asked for.
        moved: Old name to new dotted path from ``obj`` (``"read_resource"`` -> ``"server_features.read_resource"``).

    Returns:
        What ``obj.<new path>`` is.

    Raises:
        AttributeError: ``name`` is not an old name (an attribute ``obj`` really lacks).
    """
    path = moved.get(name)
    if path is None:
        raise AttributeError(f"{type(obj).__name__!r} object has no attribute {name!r}", name=name, obj=obj)
    cls = type(obj).__name__
    warnings.warn(
        f"{cls}.{name} is deprecated and will be removed in the next release; use {cls}.{path}",
        DeprecationWarning,
        stacklevel=3,  # the caller of the agent's __getattr__
    )
    return operator.attrgetter(path)(obj)


def moved_module_name(module: str, name: str, moved: Mapping[str, str]) -> Any:
    """A name module ``module`` had, from the module it lives in now, after a ``DeprecationWarning``.

    Call it from the old module's ``__getattr__`` (Python calls that only for names the module lacks).

    Args:
        module: The old module's name (``__name__``).
        name: The name asked for.
        moved: Old name to the module that holds it now (``"TokenSet"`` -> ``"workbench.core.oauth.tokens"``).

    Raises:
        AttributeError: ``name`` is not an old name.
    """
    new = moved.get(name)
    if new is None:
        raise AttributeError(f"module {module!r} has no attribute {name!r}", name=name)
    warnings.warn(
        f"{module}.{name} is deprecated and will be removed in the next release; use {new}.{name}",
        DeprecationWarning,
        stacklevel=3,  # the code that imported or read the old name
    )
    return getattr(importlib.import_module(new), name)
