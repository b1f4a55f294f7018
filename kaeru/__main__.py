"""`python -m kaeru ...` runs the `kaeru` command (the same CLI as the console script)."""

import sys

from kaeru.tui.cli.main import main

sys.exit(main())
