"""`python -m kaeru.tui.cli ...` runs the `kaeru` command."""

import sys

from kaeru.tui.cli.main import main

sys.exit(main())
