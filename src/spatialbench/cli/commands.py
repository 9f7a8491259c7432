"""Imports every sub-command module; a new sub-command is one new module plus one line here."""
# ruff: noqa: I001  (one line per sub-command, appended by different people; order does not matter)

from spatialbench.cli import version  # noqa: F401
from spatialbench.cli import reconcile  # noqa: F401
from spatialbench.cli import score  # noqa: F401
from spatialbench.cli import baseline  # noqa: F401
from spatialbench.cli import demo  # noqa: F401
from spatialbench.cli import generate_vsibench  # noqa: F401
from spatialbench.cli import audit  # noqa: F401
from spatialbench.cli import run  # noqa: F401
from spatialbench.cli import generate_synthetic  # noqa: F401
from spatialbench.cli import breakdown  # noqa: F401
from spatialbench.cli import report  # noqa: F401
from spatialbench.cli import compare  # noqa: F401
from spatialbench.cli import errors  # noqa: F401
from spatialbench.cli import serve  # noqa: F401
from spatialbench.cli import generate_remindview  # noqa: F401
from spatialbench.cli import cogmap  # noqa: F401
from spatialbench.cli import sweep  # noqa: F401
from spatialbench.cli import ingest  # noqa: F401
from spatialbench.cli import merge  # noqa: F401
from spatialbench.cli import judge  # noqa: F401
from spatialbench.cli import consistency  # noqa: F401
from spatialbench.cli import probe  # noqa: F401
from spatialbench.cli import list  # noqa: F401
from spatialbench.cli import stress_test  # noqa: F401
from spatialbench.cli import debias  # noqa: F401
from spatialbench.cli import import_command  # noqa: F401
from spatialbench.cli import answerability  # noqa: F401
from spatialbench.cli import export  # noqa: F401
from spatialbench.cli import profile  # noqa: F401
