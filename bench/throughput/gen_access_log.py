#!/usr/bin/env python3
"""Writes the access log of the whole-process throughput run (docs/benchmark.md, "Session 6").

One `GET /api/v1/items/<hex>?session=<hex>` request a line, with a random client address,
time and size, until the file holds at least SIZE bytes (default 30 MiB). Fixed seed: every run
and machine gets the same bytes. Only generates; the timing is bench/throughput/run.sh's.
"""
import random
import sys


def main() -> None:
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: gen_access_log.py OUT [SIZE]")
    out, size = sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else 30 << 20
    rng = random.Random(3)
    written = 0
    with open(out, "w", encoding="ascii", newline="\n") as f:
        while written < size:
            line = (
                f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(256)} - - "
                f"[01/Dec/2026:12:{rng.randrange(60):02d}:{rng.randrange(60):02d} +0000] "
                f'"GET /api/v1/items/{rng.getrandbits(40):x}?session={rng.getrandbits(64):x} '
                f'HTTP/1.1" 200 {rng.randrange(100, 100000)} "-" "curl/7.88"\n'
            )
            f.write(line)
            written += len(line)


if __name__ == "__main__":
    main()
