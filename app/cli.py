"""The ``amerikaner`` command: ``serve``, ``replay`` and ``simulate``.

Each subcommand lives in its own module and is imported only when used, so that
``amerikaner replay`` starts fast and needs nothing of the web stack.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="amerikaner", description="Play Amerikaner online, replay and simulate games.")
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", required=True)

    replay = sub.add_parser("replay", help="check game records against the rules")
    replay.add_argument("files", nargs="+", metavar="FILE")

    sim = sub.add_parser("simulate", help="play deals between bots and print a summary")
    sim.add_argument("--deals", type=int, required=True)
    sim.add_argument("--seed", type=int, required=True)
    sim.add_argument("--bots", default=None, help="comma-separated bot names, one per seat")
    sim.add_argument("--rules", default="standard", help="a preset name or a rules JSON object")
    sim.add_argument("--rotate", action="store_true",
                     help="play each deal once per seat with the bots rotated")
    sim.add_argument("--records", default=None, metavar="FILE",
                     help="write one game record per line, one per played deal")

    serve = sub.add_parser("serve", help="run the web server")
    serve.add_argument("--host", default=None,
                       help="address to listen on (default 127.0.0.1, or AMERIKANER_HOST)")
    serve.add_argument("--port", type=int, default=None,
                       help="port to listen on (default 8000, or AMERIKANER_PORT)")
    serve.add_argument("--data-dir", default=None,
                       help="folder of the SQLite database (default ./data, or "
                            "AMERIKANER_DATA_DIR)")
    serve.add_argument("--database-url", default=None, metavar="URL",
                       help="postgresql://user:password@host/db: a PostgreSQL database "
                            "shared by several server processes instead of SQLite "
                            "(or AMERIKANER_DATABASE_URL)")
    return parser


class _VersionAction(argparse.Action):
    """``--version``: the installed version, looked up only when asked (the package
    metadata costs every other command about 10 ms of start-up)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        print(f"{parser.prog} {_version()}")
        parser.exit()


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("amerikaner")
    except PackageNotFoundError:
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "replay":
        from .replay_command import run_replay

        return run_replay(args.files)
    if args.command == "simulate":
        from .simulate import run_simulate

        return run_simulate(args)
    from .serve import run_serve

    return run_serve(args)


if __name__ == "__main__":
    sys.exit(main())
