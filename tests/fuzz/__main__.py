"""``python -m tests.fuzz [--jobs N] [--only TEXT ...] [--bad] [--findings FILE]``:
run the fuzz suite and print the counts by entry point and outcome class."""

from __future__ import annotations

import argparse
import json
import sys
import time

from .runner import BAD, format_bad, run, summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    parser.add_argument("--only", nargs="+", default=None,
                        help="run the cases whose id contains one of these")
    parser.add_argument("--bad", action="store_true", help="also list every bad case")
    parser.add_argument("--findings", default=None,
                        help="write the bad cases, grouped, to this file")
    parser.add_argument("--json", default=None, help="write every outcome to this JSON file")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    results = run(jobs=args.jobs, only=args.only, progress=True)
    elapsed = time.perf_counter() - start
    print(summary(results))
    print(f"({elapsed:.0f} s with {args.jobs} workers)")
    if args.bad:
        print(format_bad(results))
    if args.findings:
        with open(args.findings, "w") as fh:
            fh.write(summary(results) + "\n\n" + format_bad(results, examples=1) + "\n")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)
    return 1 if any(r["cls"] in BAD for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
