"""Qt-free core: agents, connections, events, wire recorder, credentials, settings."""
