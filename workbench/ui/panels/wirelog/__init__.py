"""The wire log pane: every recorded message of every connection, filterable, exportable."""
