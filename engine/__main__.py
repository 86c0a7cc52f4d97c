"""``python -m engine check|match FILE``: see docs/deal-records.md, "Command line"."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from engine.api import check, check_match
from engine.problems import NotARecord


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    parser.add_argument("command", choices=("check", "match"))
    parser.add_argument("file", help="a JSON file, or '-' for standard input")
    args = parser.parse_args(argv)
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except OSError as exc:
        print(f"cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"cannot read {args.file}: not UTF-8 text", file=sys.stderr)
        return 2
    try:
        record = json.loads(text)
    except ValueError as exc:  # not JSON, or a number of more digits than Python reads
        print(f"not JSON: {exc}", file=sys.stderr)
        return 2
    except RecursionError:
        print("not JSON: nested too deeply", file=sys.stderr)
        return 2
    try:
        result = check(record) if args.command == "check" else check_match(record)
    except NotARecord as exc:
        print(f"not a record: {exc}", file=sys.stderr)
        return 2
    json.dump(result.to_dict(), sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0 if result.valid else 1


if __name__ == "__main__":
    sys.exit(main())
