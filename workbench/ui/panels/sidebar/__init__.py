"""The connection sidebar: saved profiles, their live state, and the commands that change them."""
