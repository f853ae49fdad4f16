"""Run the faircompare benchmark: ``python benchmark.py [OPTIONS]`` is ``faircompare run``."""

import sys

from faircompare.cli import main

if __name__ == "__main__":
    main(["run", *sys.argv[1:]])
