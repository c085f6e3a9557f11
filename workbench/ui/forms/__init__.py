"""Forms generated from JSON Schema (tool inputs, elicitation requests, A2A input-required)."""
