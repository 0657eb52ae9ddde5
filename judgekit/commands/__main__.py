"""`python -m judgekit.commands`: the `judgekit` command without its console script."""

import sys

from judgekit.commands import main

sys.exit(main())
