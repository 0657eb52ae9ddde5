"""An event's rulings: what judges write, kept in SQLite (no Flask, nothing from the web layer)."""
