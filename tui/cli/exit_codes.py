"""The exit codes of every `kaeru` command (documented in `kaeru --help` and the README)."""

EXIT_OK = 0  # done
EXIT_NO_SOLUTION = 1  # the engine proved there is no solution
EXIT_BAD_INPUT = 2  # the command line or a file named in it is wrong
EXIT_GAVE_UP = 3  # a budget or a size limit stopped the search
EXIT_INTERNAL = 4  # a bug: the traceback is in the log file named on stderr
EXIT_INTERRUPTED = 130  # ctrl+c
