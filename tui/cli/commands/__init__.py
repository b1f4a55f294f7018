"""One module per `kaeru` subcommand: each defines `NAME`, `HELP`, `configure(parser)` and
`run(args) -> int` (and `ORDER`, its place in `--help`, lower first). A new one is listed in
`tui/cli/command_list.py` too, which the top-level parser reads without importing any command
(a test checks the two agree)."""
