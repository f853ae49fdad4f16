"""``python -m faircompare``: the command line, as the ``faircompare`` command runs it."""

from faircompare.cli import main

if __name__ == "__main__":
    main()
