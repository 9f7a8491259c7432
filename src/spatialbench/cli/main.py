"""Entry point of the ``spatialbench`` console command: imports each sub-command module once."""

# Importing a module registers its commands on ``app`` (or a sub-app of it).
from spatialbench.cli import commands  # noqa: F401,E402  (import for side effect)
from spatialbench.cli.apps import app

__all__ = ["app"]

if __name__ == "__main__":
    app()
