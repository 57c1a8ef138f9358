"""The `sqlrank` command line: parse the arguments, call the library, print.

    sqlrank eval QRELS RUN [RUN ...] [-m MEASURE ...] [-q] [-f FORMAT] [-o FILE]
    sqlrank query SQL [--qrels [NAME=]PATH ...] [--run [NAME=]PATH ...]
    sqlrank compare QRELS RUN RUN [RUN ...] [-b NAME] [-t TEST ...]
    sqlrank plot KIND QRELS RUN [RUN ...] -o FILE
    sqlrank sql          the macro library, for the DuckDB shell's `.read`
    sqlrank measures     every measure, its spellings and parameters

Only results go to stdout (or to -o FILE, written atomically); notices,
progress and errors go to stderr. A user mistake ends in one line
`sqlrank: error: ...` and exit code 1 (bad data) or 2 (bad usage), never a
traceback. The numbers, the SQL and the formats are the library's: this
package holds none of them, and imports only the public API (`sqlrank`) and its
errors.

One module a command group, each declaring its commands' arguments and calling the library:
evaluate (eval), query, compare (compare, plot), catalogue (sql, measures). commands holds the
app and its table of commands; options the choices and options several commands share;
arguments turns arguments into the library's; terminal says what goes where; failures words
a mistake or a stop; process runs the app as main() (the console script) or run() (a caller's
own process). docs/cli-code.md tells why it is laid out so.
"""

from .commands import app
from .options import DEFAULT_MEASURES
from .process import main, run

__all__ = ["app", "main", "run", "DEFAULT_MEASURES"]
