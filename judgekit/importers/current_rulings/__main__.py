"""``python -m judgekit.importers.current_rulings``."""

from . import main

main()
