"""Protocol adapters behind the one ``RemoteAgent`` contract."""
