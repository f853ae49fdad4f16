"""Deprecated since 0.2.0: this module's names moved (see :mod:`faircompare._deprecations`)."""

from faircompare._deprecations import moved_names

__getattr__ = moved_names(__name__)
