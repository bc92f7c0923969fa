"""Lesson files (decks/lessons/*.scenario.toml), shipped as package data."""
