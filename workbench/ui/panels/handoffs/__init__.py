"""The Handoff view: a chain of multi-agent hops drawn live as a swimlane sequence diagram."""
