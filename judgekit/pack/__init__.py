"""The judge pack: the whole reference as static files that install on a phone and work offline."""
