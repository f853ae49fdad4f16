"""File names made from names: the report's and the export's, shared by the plan's checks."""

from __future__ import annotations

import re


def slug(*parts: str) -> str:
    """Make a file name from parts: lower case, anything but letters and digits as ``-``.

    Parameters
    ----------
    *parts
        Names (a figure's kind, a dataset, an attribute, a variant).

    Returns
    -------
    str
        For example ``slug("tradeoff", "Ricci", "Race")`` is ``"tradeoff-ricci-race"``.
    """
    return re.sub(r"[^a-z0-9]+", "-", "-".join(parts).lower()).strip("-")
