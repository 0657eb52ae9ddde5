"""``python -m judgekit.importers.rulebook_v4``."""

from . import main

raise SystemExit(main())
