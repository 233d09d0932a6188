"""The series the measurement tests start from, and running them through processing.

Series are crafted in the tests and written to real Parquet/CSV files. The baseline is
16 rows, 10 s apart: rest (rows 0-2), 1 A discharge (rows 3-7), rest (rows 8-10),
1 A charge (rows 11-15); steps 0-1 are cycle 0, steps 2-3 cycle 1.
"""

from __future__ import annotations

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from cellar_worker.measurements import columns as col
from cellar_worker.measurements.issues import parse_options
from cellar_worker.measurements.process import process_upload

H = 1 / 3600.0  # seconds -> hours


def baseline(cumulative: bool = True) -> dict[str, list]:
    data = {
        col.TIME: [10.0 * k for k in range(16)],
        col.CURRENT: [0.0] * 3 + [1.0] * 5 + [0.0] * 3 + [-1.0] * 5,
        col.VOLTAGE: [3.70] * 3 + [3.65, 3.60, 3.55, 3.50, 3.45] + [3.50, 3.52, 3.53] + [3.60, 3.65, 3.70, 3.75, 3.80],
        col.STEP: [0] * 3 + [1] * 5 + [2] * 3 + [3] * 5,
        col.CYCLE: [0] * 8 + [1] * 8,
    }
    if cumulative:
        add_cumulative(data)
    return data


def add_cumulative(data: dict[str, list]) -> dict[str, list]:
    """Reference per-step trapezoid integrals, written as plainly as possible."""
    t, i, v, s = data[col.TIME], data[col.CURRENT], data[col.VOLTAGE], data[col.STEP]
    totals = {name: [0.0] for name in col.CUMULATIVE}
    for k in range(1, len(t)):
        same_step = s[k] == s[k - 1]
        dt = (t[k] - t[k - 1]) * H
        integrands = {
            col.DISCHARGE_CAPACITY: lambda j: max(i[j], 0.0),
            col.CHARGE_CAPACITY: lambda j: max(-i[j], 0.0),
            col.DISCHARGE_ENERGY: lambda j: max(v[j] * i[j], 0.0),
            col.CHARGE_ENERGY: lambda j: max(-v[j] * i[j], 0.0),
        }
        for name, f in integrands.items():
            previous = totals[name][-1] if same_step else 0.0
            increment = 0.5 * (f(k) + f(k - 1)) * dt if same_step else 0.0
            totals[name].append(previous + increment)
    data.update(totals)
    return data


def write(path, data: dict[str, list], fmt: str = "parquet") -> str:
    table = pa.table(data)
    if fmt == "csv":
        pacsv.write_csv(table, str(path))
    else:
        pq.write_table(table, str(path))
    return str(path)


def run(tmp_path, data, fmt="parquet", validation=None, rated=None, vmin=None, vmax=None, **kwargs):
    source = write(tmp_path / f"upload.{fmt}", data, fmt)
    options, option_issues = parse_options(validation, rated, vmin, vmax)
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    return process_upload(source, str(out), options, option_issues=option_issues, **kwargs)


def codes(outcome) -> list[str]:
    return [issue["code"] for issue in outcome.issues]


def only(outcome, code: str) -> dict:
    found = [issue for issue in outcome.issues if issue["code"] == code]
    assert len(found) == 1, outcome.issues
    return found[0]


def read(path) -> dict[str, list]:
    return pq.read_table(path).to_pydict()


def upload_steps(tmp_path, data: dict[str, list], fmt: str = "csv") -> str:
    return write(tmp_path / f"steps-upload.{fmt}", data, fmt)
