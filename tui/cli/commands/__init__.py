"""One module per `kaeru` subcommand. A module here that defines `NAME`, `HELP`,
`configure(parser)` and `run(args) -> int` becomes a subcommand by itself; `ORDER` places it
in `--help` (lower first)."""
