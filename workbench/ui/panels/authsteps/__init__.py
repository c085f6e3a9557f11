"""The auth steps panel: OAuth steps (discovery, registration, authorize, token, refresh, revoke) of a connection."""
