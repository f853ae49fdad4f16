"""Former home of :mod:`faircompare.algorithms.loss_oracle`; its names work here until 0.4.0."""

from faircompare._deprecations import moved_names

__getattr__ = moved_names(__name__)
