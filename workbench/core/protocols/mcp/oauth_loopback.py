"""The OAuth loopback redirect receiver, shared with A2A: re-exported from ``workbench.core.http.loopback``."""

from workbench.core.http.loopback import CALLBACK_PATH, AuthorizationResponse, LoopbackReceiver, free_port, redirect_uri

__all__ = ["CALLBACK_PATH", "AuthorizationResponse", "LoopbackReceiver", "free_port", "redirect_uri"]
