"""Sampling responders: who answers a server's ``sampling/createMessage`` — a person, a script or a model.

``responders`` holds the per-connection choice and its policy (always ask / auto with a visible log /
deny) with token and cost counters; ``script`` answers from rules in a file; ``model`` answers through
an OpenAI-compatible or Anthropic endpoint (``openai_chat`` / ``anthropic_messages``, the only modules
that import those SDKs, loaded only when a model answers); ``endpoints`` keeps the endpoint profiles.
"""
