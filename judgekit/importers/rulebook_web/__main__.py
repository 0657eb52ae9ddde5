"""``python -m judgekit.importers.rulebook_web``."""

from . import main

raise SystemExit(main())
