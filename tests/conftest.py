"""Shared fixtures: a private data cache per session, the raw-data mirror, the peer's frames.

The mirror defaults to ``../shared/data`` beside the repository (this workplace's offline copies,
the paper's files in one folder of it and the modern datasets' in another); set
``FAIRCOMPARE_MIRROR`` (or its former name, ``FAIRCOMPARE_DATA_MIRROR``) to use another. Without
a mirror, data tests download the pinned files.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from faircompare._deprecations import ENVIRONMENT, former_names
from faircompare.datasets import Dataset, DatasetSpec, load_dataset
from faircompare.datasets.clean import clean
from faircompare.datasets.fetch import CACHE_ENV, MIRROR_ENV

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def _existing(path: str | Path | None) -> Path | None:
    return Path(path) if path and Path(path).is_dir() else None


MIRROR = (
    _existing(os.environ.get(MIRROR_ENV))
    or next(
        filter(None, (_existing(os.environ.get(o)) for o in former_names(ENVIRONMENT, MIRROR_ENV))),
        None,
    )
    or _existing(SHARED)
)
PEER_FRAMES = _existing(SHARED / "fairness-comparison-preprocessed")


@pytest.fixture(scope="session", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory):
    """Point the data cache and mirror at test locations, never at the user's own cache.

    The variables' former names are set aside for the session, so that no command the tests
    run warns about them.
    """
    keys = (CACHE_ENV, MIRROR_ENV, *ENVIRONMENT)
    saved = {key: os.environ.pop(key, None) for key in keys}
    os.environ[CACHE_ENV] = str(tmp_path_factory.mktemp("cache"))
    if MIRROR:
        os.environ[MIRROR_ENV] = str(MIRROR)
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


@pytest.fixture(scope="session")
def load():
    """Load a built-in dataset once per session."""
    cache: dict[str, Dataset] = {}

    def _load(name: str) -> Dataset:
        if name not in cache:
            cache[name] = load_dataset(name)
        return cache[name]

    return _load


@pytest.fixture(scope="session")
def peer_frames() -> Path:
    """Folder of the peer benchmark's preprocessed frames (skip where it is absent)."""
    if PEER_FRAMES is None:
        pytest.skip("the peer's preprocessed frames are not available here")
    return PEER_FRAMES


@pytest.fixture
def toy() -> Dataset:
    """A hand-made dataset of 12 rows: two sensitive attributes, one categorical feature."""
    raw = pd.DataFrame(
        {
            "colour": ["red", "blue", "red", "green"] * 3,
            "score": np.arange(12.0),
            "sex": ["m", "f", "f", "m"] * 3,
            "race": ["a", "a", "b", "c"] * 3,
            "outcome": ["yes", "no", "no"] * 4,
        }
    )
    spec = DatasetSpec(
        name="toy",
        file="toy.csv",
        label="outcome",
        positive_label="yes",
        sensitive=("sex", "race"),
        privileged={"sex": "m", "race": "a"},
        categorical=("colour",),
    )
    return clean(raw, spec)
