"""``python -m judgekit.importers.call_to_arms``."""

from . import main

raise SystemExit(main())
