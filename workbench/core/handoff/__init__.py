"""Multi-agent handoffs: a router between registered agents and the events a chain of hops emits."""
