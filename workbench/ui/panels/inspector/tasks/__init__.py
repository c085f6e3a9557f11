"""A connection's tasks, for A2A agents and MCP servers alike: the table, the selected task, following it live."""
