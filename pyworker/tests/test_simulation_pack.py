"""Result packs: many simulations' rows in two Parquet files, each read back to its own rows."""

import io

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from cellar_worker.simulation.pack import ROW_GROUP_ROWS, PackWriter, object_key, parquet_bytes
from cellar_worker.simulation.steps_summary import summarize_step_columns


def _series(n: int, offset: float) -> dict[str, np.ndarray]:
    time = np.arange(n, dtype=float)
    return {
        "Time [s]": time,
        "Voltage [V]": 4.0 - time / 1000 - offset,
        "Current [A]": np.full(n, 5.0),
        "Step count": np.zeros(n, dtype=np.int64),
        "Cycle count": np.zeros(n, dtype=np.int64),
    }


def test_each_simulation_reads_back_its_own_rows():
    pack = PackWriter()
    where = {}
    for index, n in enumerate([3, ROW_GROUP_ROWS + 5, 7]):  # the second spans two row groups
        columns = _series(n, offset=index)
        where[f"sim-{index}"] = (pack.add(f"sim-{index}", columns, summarize_step_columns(columns)), columns)
    tables = pack.tables()
    files = {kind: pq.ParquetFile(io.BytesIO(parquet_bytes(table))) for kind, table in tables.items()}
    assert files["time_series"].metadata.num_row_groups == 2
    whole = files["time_series"].read()
    steps = files["steps"].read()
    assert whole.column_names[0] == "simulation_id" and steps.column_names[0] == "simulation_id"
    for sid, (place, columns) in where.items():
        first, rows = place["time_series"]
        part = whole.slice(first, rows)
        assert set(part.column("simulation_id").to_pylist()) == {sid}
        np.testing.assert_array_equal(part.column("Voltage [V]").to_numpy(), columns["Voltage [V]"])
        assert part.schema.field("Step count").type == pa.int64()
        first, rows = place["steps"]
        assert steps.slice(first, rows).column("simulation_id").to_pylist() == [sid]


def test_object_keys_name_both_files_of_a_pack():
    assert (
        object_key("orgs/o/simulation-batches/b/000001-1-0002", "steps")
        == "orgs/o/simulation-batches/b/000001-1-0002-steps.parquet"
    )
    assert object_key("x", "time_series") == "x-time_series.parquet"
