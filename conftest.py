"""Collection settings for ``pytest --doctest-modules faircompare/...``.

The GAN's module needs the optional torch extra; without it, its examples are not collected.
"""

import importlib.util

collect_ignore = [] if importlib.util.find_spec("torch") else ["faircompare/stats/gan.py"]
