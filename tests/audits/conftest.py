"""A small fitted run for the audit layer's tests."""

import pytest

from faircompare.audits.contract import synthetic_run


@pytest.fixture(scope="module")
def run():
    return synthetic_run("numerical+binary")
