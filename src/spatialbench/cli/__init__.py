"""The ``spatialbench`` command. Each sub-command lives in its own module of this package."""
