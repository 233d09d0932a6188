"""Streaming: batch boundaries and row groups do not change the answer; generated data is valid."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from measurement_series import read

from cellar_worker.measurements import columns as col
from cellar_worker.measurements.generate import write_synthetic_series
from cellar_worker.measurements.issues import parse_options
from cellar_worker.measurements.pipeline import SeriesPass
from cellar_worker.measurements.process import process_upload
from cellar_worker.measurements.reader import open_series


def load(path) -> dict[str, np.ndarray]:
    source = open_series(str(path))
    batches = list(source.iter_batches())
    return {name: np.concatenate([b[name] for b in batches]) for name in batches[0]}


def run_pass(values: dict[str, np.ndarray], splits: list[int]):
    options = parse_options(None, 5.0, 2.5, 4.2)[0]
    written = []
    series_pass = SeriesPass(list(values), options, sink=written.append)
    edges = [0, *splits, len(values[col.TIME])]
    for a, b in zip(edges[:-1], edges[1:]):
        series_pass.feed({name: array[a:b] for name, array in values.items()})
    result = series_pass.finish()
    return result, pa.Table.from_batches(written, series_pass.schema) if written else None


def random_splits(n: int, seed: int) -> list[int]:
    rng = np.random.default_rng(seed)
    cuts = set(rng.integers(1, n, size=n // 7).tolist()) | {1, 2, n - 1}
    return sorted(cuts)


def test_batch_boundaries_do_not_change_results(tmp_path):
    path = tmp_path / "gen.parquet"
    write_synthetic_series(str(path), 1500, 3, seed=3)
    values = load(path)
    whole, whole_table = run_pass(values, [])
    split, split_table = run_pass(values, random_splits(1500, 1))
    assert whole.issues == split.issues == []
    assert whole_table.equals(split_table)
    for name in whole.steps.column_names:
        a, b = whole.steps.column(name).to_pylist(), split.steps.column(name).to_pylist()
        if name in ("Step type", "Label", col.STEP, col.CYCLE):
            assert a == b
        else:
            np.testing.assert_allclose(np.array(a, dtype=float), np.array(b, dtype=float), rtol=1e-9, atol=1e-9)
    assert whole.cycles.equals(split.cycles)


def test_batch_boundaries_do_not_change_issues(tmp_path):
    path = tmp_path / "gen.parquet"
    write_synthetic_series(str(path), 1500, 3, seed=4)
    values = {name: array.copy() for name, array in load(path).items()}
    values[col.TIME][700] = values[col.TIME][699] - 1  # decrease straddling a batch edge below
    values[col.STEP][1200:] += 1  # a step skipped
    values[col.DISCHARGE_CAPACITY][900] = -1.0  # a drop inside a step
    values[col.CYCLE][1000] += 7  # cycle changes inside a step
    whole, _ = run_pass(values, [])
    split, _ = run_pass(values, [700, 900, 1000, 1200, 1201])
    assert {i["code"] for i in whole.issues} >= {
        "time_not_monotonic",
        "step_count_non_sequential",
        "cumulative_value_decreased",
        "cycle_changes_within_step",
    }
    assert rounded(whole.issues) == rounded(split.issues)


def rounded(value):
    """Floats to 9 significant digits: summation order may differ in the last bits."""
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded(v) for v in value]
    return float(f"{value:.9g}") if isinstance(value, float) else value


def test_multi_row_group_file_matches_single_row_group(tmp_path):
    many = tmp_path / "many.parquet"
    one = tmp_path / "one.parquet"
    write_synthetic_series(str(many), 2000, 4, row_group_rows=37, seed=5)
    write_synthetic_series(str(one), 2000, 4, row_group_rows=10_000, seed=5)
    assert pq.ParquetFile(str(many)).num_row_groups > 50
    assert len(list(open_series(str(many)).iter_batches(37))) > 50
    options = parse_options(None, 5.0)[0]
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = process_upload(str(many), str(tmp_path / "a"), options, batch_rows=37)
    b = process_upload(str(one), str(tmp_path / "b"), options)
    assert a.status == b.status == "ready"
    assert pq.read_table(a.time_series_path).equals(pq.read_table(b.time_series_path))
    assert pq.read_table(a.cycles_path).equals(pq.read_table(b.cycles_path))
    steps_a, steps_b = read(a.steps_path), read(b.steps_path)
    assert steps_a["Step type"] == steps_b["Step type"]
    np.testing.assert_allclose(steps_a["Std voltage [V]"], steps_b["Std voltage [V]"], rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("suffix", ["parquet", "csv"])
def test_generated_series_is_valid(tmp_path, suffix):
    path = tmp_path / f"gen.{suffix}"
    info = write_synthetic_series(str(path), 3000, 3, row_group_rows=500)
    assert info["rows"] == 3000 and info["steps"] == 15
    outcome = process_upload(str(path), str(tmp_path), parse_options(None, 5.0, 2.5, 4.2)[0])
    assert outcome.status == "ready" and outcome.issues == []
    assert outcome.row_count == 3000
    steps = read(outcome.steps_path)
    assert steps["Step type"][:5] == [
        "Rest",
        "Constant current charge",
        "Constant voltage charge",
        "Rest",
        "Constant current discharge",
    ]
    cycles = read(outcome.cycles_path)
    assert cycles[col.CYCLE] == [0, 1, 2]
    assert all(4.0 < c < 5.0 for c in cycles[col.DISCHARGE_CAPACITY])
