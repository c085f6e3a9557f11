"""The stderr panel: what the selected stdio server wrote to its stderr, and when it exited."""
