"""A new plugin from a template: ``faircompare new-plugin NAME --kind KIND``.

Each kind's template is a small, working method of that kind (reweighing, a penalised logistic
regression, group thresholds) that passes ``check-plugin`` and runs in a study unchanged, with
a test file beside it; the user replaces the method and keeps the class attributes true.
"""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path
from string import Template

from faircompare._validation import LONGEST_NAME, is_name, quoted
from faircompare.exceptions import FaircompareError
from faircompare.safe_write import write_text

__all__ = ["PLUGIN_KINDS", "write_plugin"]

#: The kinds of template, by where the method acts: each is the family the plugin declares.
PLUGIN_KINDS = ("pre-processing", "in-processing", "post-processing")

_NAME = re.compile(r"[a-z][a-z0-9]*(-[a-z0-9]+)*")


def write_plugin(
    name: str, kind: str = "in-processing", folder: str | Path = "plugins"
) -> list[Path]:
    """Write a plugin file and its test from the template of ``kind``.

    Parameters
    ----------
    name
        The algorithm's registry name: lower-case words joined by hyphens (``my-method``); the
        file is the name with underscores (``my_method.py``), the class its words capitalised
        (``MyMethod``).
    kind
        One of :data:`PLUGIN_KINDS`.
    folder
        The plugin folder (``--plugins``): the plugin goes in it, its test in ``tests/`` under
        it (a folder the registry does not search).

    Returns
    -------
    list of Path
        The plugin file and the test file.

    Raises
    ------
    FaircompareError
        For a name that is not lower-case words joined by hyphens of at most 64 characters
        in all (as every name), an unknown kind, or a file that exists already (nothing is
        overwritten); a folder that cannot be written is a
        :class:`~faircompare.safe_write.WriteError` naming it.
    """
    if not (_NAME.fullmatch(name) and is_name(name, lower_case=True)):
        raise FaircompareError(
            f"plugin name {quoted(name)} must be lower-case words joined by hyphens, at most "
            f"{LONGEST_NAME} characters, like 'my-method'"
        )
    if kind not in PLUGIN_KINDS:
        raise FaircompareError(
            f"unknown plugin kind {kind!r}; valid choices: {', '.join(PLUGIN_KINDS)}"
        )
    folder = Path(folder)
    module = name.replace("-", "_")
    values = {
        "name": name,
        "module": module,
        "cls": "".join(word.capitalize() for word in name.split("-")),
        "kind": kind,
        "folder": folder.as_posix(),
    }
    texts = {
        folder / f"{module}.py": _template("header") + "\n" + _template(kind),
        folder / "tests" / f"test_{module}.py": _template("test"),
    }
    existing = [str(path) for path in texts if path.exists()]
    if existing:
        raise FaircompareError(f"{', '.join(existing)} exists already: choose another name")
    for path, text in texts.items():
        write_text(path, Template(text).substitute(values), folder)
    return list(texts)


def _template(part: str) -> str:
    return (files("faircompare") / "plugin_templates" / f"{part}.tmpl").read_text()
