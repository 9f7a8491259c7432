"""Each TSV-reading benchmark refuses every other benchmark's VLMEvalKit/EASI TSV, in one line (issue 24).

The kit's TSVs share their columns, so a 3DSRBench TSV used to load as 11 MMSI-Bench questions without a
row error and was scored. Each file here is the benchmark's own test fixture under its official name.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spatialbench.benchmarks import get_benchmark
from spatialbench.cli.main import app
from spatialbench.records.errors import AnnotationFileError
from support.kit_tsvs import TSVS

TITLES = {
    "mmsi-bench": "MMSI-Bench",
    "mindcube": "MindCube",
    "viewspatial": "ViewSpatial-Bench",
    "site": "SITE",
    "blink": "BLINK",
    "3dsrbench": "3DSRBench",
    "embspatial": "EmbSpatial-Bench",
    "cvbench": "CV-Bench",
}
COUNTS = {
    "mmsi-bench": 6,
    "mindcube": 7,
    "viewspatial": 6,
    "site": 4,
    "blink": 6,
    "3dsrbench": 11,
    "embspatial": 7,
    "cvbench": 7,
}  # the rows of each fixture (SITE: its image part)
PAIRS = [(owner, reader) for owner in TSVS for reader in TSVS if owner != reader]


def _load(reader: str, table: Path):  # noqa: ANN202
    return get_benchmark(reader).load_items(table, **({"subset": "tiny"} if reader == "mindcube" else {}))


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("kit")
    return {name: make(root / name) for name, make in TSVS.items()}


@pytest.mark.parametrize("name", list(TSVS))
def test_each_benchmark_reads_its_own_tsv(name: str, tables: dict[str, Path]) -> None:
    loaded = _load(name, tables[name])
    assert not loaded.errors and len(loaded) == COUNTS[name]


@pytest.mark.parametrize(("owner", "reader"), PAIRS, ids=[f"{o}-as-{r}" for o, r in PAIRS])
def test_another_benchmarks_tsv_is_refused(
    owner: str, reader: str, tables: dict[str, Path], tmp_path: Path
) -> None:
    table = tables[owner]
    if reader == "site":  # SITE reads its part from the name: the file under SITE's name, to test its content
        table = Path(shutil.copy(table, tmp_path / "SiteBenchImage.tsv"))
    with pytest.raises(AnnotationFileError) as refused:
        _load(reader, table)
    message = str(refused.value)
    assert message.startswith(f"{table}: not a TSV of {TITLES[reader]}: ") and "\n" not in message
    # the hint names the owner alone: the columns of several fit, their kind values only the owner's
    assert message.endswith(f"another benchmark's file? (its columns are those of --benchmark {owner})")


def test_the_message_names_the_values_found_and_expected(tables: dict[str, Path]) -> None:
    with pytest.raises(AnnotationFileError) as refused:
        _load("mmsi-bench", tables["3dsrbench"])
    assert str(refused.value) == (
        f"{tables['3dsrbench']}: not a TSV of MMSI-Bench: its category values (height_higher, "
        "location_above, multi_object_facing, orientation_on_the_left) are none of MMSI-Bench's question "
        "types (Positional Relationship (Cam.-Cam.), Positional Relationship (Obj.-Obj.), "
        "Positional Relationship (Reg.-Reg.), Positional Relationship (Cam.-Obj.), ...); "
        "another benchmark's file? (its columns are those of --benchmark 3dsrbench)"
    )
    with pytest.raises(AnnotationFileError) as missing:
        _load("cvbench", tables["embspatial"])
    assert str(missing.value) == (
        f"{tables['embspatial']}: not a TSV of CV-Bench: no source column (its columns: index, image, "
        "question, options, answer, data_source); another benchmark's file? (its columns are those of "
        "--benchmark embspatial)"
    )


def test_site_names_the_file_whose_name_has_no_part(tables: dict[str, Path]) -> None:
    with pytest.raises(
        AnnotationFileError, match=r"BLINK\.tsv: not a SITE table: its part is read from its name"
    ):
        _load("site", tables["blink"])


def test_run_refuses_a_3dsrbench_tsv_as_mmsi_bench(
    tables: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    out = tmp_path / "run"
    args = [
        "run",
        "--benchmark",
        "mmsi-bench",
        "--data",
        str(tables["3dsrbench"]),
        "--out",
        str(out),
        "--no-progress",
        "--model",
        "openai-compatible:http://127.0.0.1:9/v1#m",
    ]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2
    assert result.output.startswith(f"error: {tables['3dsrbench']}: not a TSV of MMSI-Bench: its category")
    assert result.output.count("\n") == 1 and not (out / "scores.json").exists()


KINDS = {
    "3dsrbench": "*.tsv, *.parquet",
    "blink": "*.parquet, *.tsv",
    "mmsi-bench": "*.parquet, *.tsv",
    "cvbench": "*.parquet, *.jsonl, *.tsv",
    "embspatial": "*.json, *.jsonl, *.tsv",
    "viewspatial": "*.json, *.tsv",
    "mindcube": "*.jsonl, *.tsv",
}


@pytest.mark.parametrize("reader", list(KINDS))
def test_a_file_of_another_kind_is_refused_by_its_suffix(reader: str, tmp_path: Path) -> None:
    """A ``.json`` given to a Parquet reader was read as Parquet ("not a Parquet file"), a ``.parquet``
    given to a JSON reader as text ("not UTF-8"); now the kinds the benchmark reads are named."""
    suffix = ".parquet" if "*.parquet" not in KINDS[reader] else ".json"
    other = tmp_path / f"release{suffix}"
    other.write_text("[]")
    with pytest.raises(AnnotationFileError) as refused:
        _load(reader, other)
    assert str(refused.value) == (
        f"{other}: {TITLES[reader]} reads {KINDS[reader]}, not *{suffix} (another benchmark's file?)"
    )
