"""Panels of the main window; each has a view-model (state + async commands) and a widget."""
