"""The A2A capability inspector: agent card, skills, raw card JSON and the agent's tasks."""
