"""Print the installed versions of the packages whose releases move CI's verdict, on one line.

Run by `.ci/run` and `.ci/latest` in each environment they build, so a log says what was tested.
"""

from importlib.metadata import PackageNotFoundError, version

PACKAGES = (
    "numpy", "pandas", "scipy", "scikit-learn", "fairlearn", "matplotlib", "click",
    "pytest", "mypy", "ruff", "numpydoc", "sphinx", "torch",
)  # fmt: skip


def installed(name: str) -> str:
    """Return the installed version of `name`, or "absent"."""
    try:
        return version(name)
    except PackageNotFoundError:
        return "absent"


if __name__ == "__main__":
    print("versions: " + ", ".join(f"{name} {installed(name)}" for name in PACKAGES))
