"""The kit's version: one place, read by the packaging metadata and by every output."""

#: Recorded in the provenance of every output (``kit_version``).
VERSION = "0.1.0"
