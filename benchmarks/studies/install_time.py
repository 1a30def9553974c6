"""How long does ``pip install .`` take in a fresh virtual environment (build isolation,
the kernels compiled in parallel), against another source tree timed right after it?

    python benchmarks/studies/install_time.py [OTHER_SOURCE] [--pairs 1]

Times this checkout (and ``OTHER_SOURCE``, e.g. an older commit's ``git archive``,
alternately) from a new venv with an upgraded pip, as wall seconds with the load
average at the end of each install: the machine's other work moves these numbers.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def install_seconds(source: str) -> float:
    with tempfile.TemporaryDirectory() as work:
        venv = os.path.join(work, "venv")
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
        pip = [os.path.join(venv, "bin", "python"), "-m", "pip"]
        subprocess.run(pip + ["install", "-q", "--upgrade", "pip"], check=True,
                       capture_output=True)
        start = time.perf_counter()
        subprocess.run(pip + ["install", "-q", "."], cwd=source, check=True,
                       capture_output=True)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", nargs="?", help="another source tree to time alternately")
    parser.add_argument("--pairs", type=int, default=1)
    args = parser.parse_args()
    for _ in range(args.pairs):
        for name, source in (("this checkout", HERE), ("other", args.other)):
            if source is None:
                continue
            seconds = install_seconds(source)
            print(f"{name:14s} {seconds:6.1f} s  (load {os.getloadavg()[0]:.2f})", flush=True)


if __name__ == "__main__":
    main()
