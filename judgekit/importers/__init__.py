"""Importers: turn the seed texts into draft YAML for curation."""
