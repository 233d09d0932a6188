"""Result packs: the results of many simulations in two Parquet files.

A sweep's chunk solves hundreds of points a second; a Parquet file (and an object, and its
fsync) per simulation would cost more than the solves. So each flush of a chunk stores one
pack: ``<base>-time_series.parquet`` and ``<base>-steps.parquet``, each the rows of all its
simulations one after another, with a ``simulation_id`` first column (a batch's packs read
as one dataset). A simulation records its base and where its rows lie (``result_pack``)::

    {"key": "<base>", "time_series": [first row, rows], "steps": [first row, rows]}

and a download reads those rows back (row groups are small, so only a few are read) and
answers them as the standalone file the simulation alone would have had.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .steps_summary import SUMMARY_SCHEMA

FILES = {"time_series": "time_series.parquet", "steps": "steps.parquet"}
# Rows per row group: a download reads the groups its rows lie in, so small groups keep it cheap.
ROW_GROUP_ROWS = 16_384


def object_key(base: str, kind: str) -> str:
    return f"{base}-{FILES[kind]}"


def parquet_bytes(table: pa.Table) -> bytes:
    # Written in memory. Dictionary encoding only for the repeated simulation ids: solver
    # output hardly repeats.
    sink = pa.BufferOutputStream()
    pq.write_table(
        table,
        sink,
        use_dictionary=["simulation_id"] if "simulation_id" in table.column_names else False,
        row_group_size=ROW_GROUP_ROWS,
    )
    return sink.getvalue().to_pybytes()


class PackWriter:
    """Collects the time series (column arrays) and step summaries of a flush's simulations."""

    def __init__(self) -> None:
        self._series: list[tuple[str, dict[str, np.ndarray]]] = []
        self._steps: list[tuple[str, pa.Table]] = []
        self.rows = {"time_series": 0, "steps": 0}
        self.size = 0  # bytes held, about
        self.count = 0

    def add(self, simulation_id: str, columns: dict[str, np.ndarray], steps: dict) -> dict:
        """Append one simulation (its time-series columns and step-summary columns); answers
        where its rows will lie (the key is added by the caller)."""
        length = len(columns["Time [s]"])
        step_rows = len(steps["Step count"])
        where = {"time_series": [self.rows["time_series"], length], "steps": [self.rows["steps"], step_rows]}
        self._series.append((simulation_id, columns))
        self._steps.append((simulation_id, steps))
        self.rows["time_series"] += length
        self.rows["steps"] += step_rows
        self.size += 8 * (length * len(columns) + step_rows * len(steps))
        self.count += 1
        return where

    def tables(self) -> dict[str, pa.Table]:
        """The two files' tables, in the order the simulations were added."""
        names = list(self._series[0][1])
        ids = [sid for sid, _ in self._series]
        lengths = [len(cols["Time [s]"]) for _, cols in self._series]
        series = {
            "simulation_id": pa.DictionaryArray.from_arrays(
                np.repeat(np.arange(len(ids), dtype=np.int32), lengths), pa.array(ids)
            )
        }
        for name in names:
            values = np.concatenate([cols[name] for _, cols in self._series])
            series[name] = pa.array(values, type=pa.int64() if name in ("Step count", "Cycle count") else pa.float64())
        # One table for every simulation's step summary, not one per simulation (30 columns each).
        parts = [cols for _, cols in self._steps]
        step_ids = np.repeat(np.arange(len(ids), dtype=np.int32), [len(cols["Step count"]) for cols in parts])
        steps = [pa.DictionaryArray.from_arrays(step_ids, pa.array(ids))]
        for field in SUMMARY_SCHEMA:
            values = [cols[field.name] for cols in parts]
            joined = sum((list(v) for v in values), []) if pa.types.is_string(field.type) else np.concatenate(values)
            steps.append(pa.array(joined, type=field.type))
        schema = pa.schema([pa.field("simulation_id", pa.dictionary(pa.int32(), pa.string())), *SUMMARY_SCHEMA])
        return {"time_series": pa.table(series), "steps": pa.Table.from_arrays(steps, schema=schema)}
