"""Reading uploads: formats, aliases, types, unreadable and empty files, oversized headers."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest
from measurement_series import baseline, codes, only, read, run, write

from cellar_worker.measurements import columns as col
from cellar_worker.measurements.issues import parse_options
from cellar_worker.measurements.process import process_upload


def test_unreadable_binary_file(tmp_path):
    path = tmp_path / "upload.parquet"
    path.write_bytes(b"\x00\x01garbage" * 100)
    outcome = process_upload(str(path), str(tmp_path), parse_options(None)[0])
    issue = only(outcome, "unreadable_file")
    assert issue["severity"] == "error" and outcome.status == "failed"


def test_truncated_parquet_is_unreadable(tmp_path):
    full = write(tmp_path / "full.parquet", baseline())
    truncated = tmp_path / "truncated.parquet"
    truncated.write_bytes(open(full, "rb").read()[:300])
    outcome = process_upload(str(truncated), str(tmp_path), parse_options(None)[0])
    assert codes(outcome) == ["unreadable_file"]
    assert "corrupt or truncated" in outcome.issues[0]["message"]


@pytest.mark.parametrize("content", [b"", b"Time [s],Current [A],Voltage [V],Step count\n"])
def test_empty_files(tmp_path, content):
    path = tmp_path / "upload.parquet"
    path.write_bytes(content)
    outcome = process_upload(str(path), str(tmp_path), parse_options(None)[0])
    assert codes(outcome) == ["empty_file"]
    assert outcome.issues[0]["severity"] == "error"


def test_zero_row_parquet_is_empty(tmp_path):
    data = {name: [] for name in baseline()}
    outcome = run(tmp_path, {k: pa.array(v, pa.float64()) for k, v in data.items()})
    assert codes(outcome) == ["empty_file"]


def test_text_in_numeric_csv_column(tmp_path):
    path = tmp_path / "upload.parquet"  # CSV bytes under a .parquet key, as uploads arrive
    rows = ["Time [s],Current [A],Voltage [V],Step count", "0,0,3.7,0", "10,abc,3.7,0"]
    path.write_text("\n".join(rows) + "\n")
    outcome = process_upload(str(path), str(tmp_path), parse_options(None)[0])
    issue = only(outcome, "column_not_numeric")
    assert issue["severity"] == "error"
    assert issue["payload"] == {"file": "time series", "column": col.CURRENT, "value": "abc"}


def test_text_in_numeric_parquet_column(tmp_path):
    data = baseline()
    data[col.VOLTAGE] = [str(v) for v in data[col.VOLTAGE]]
    data[col.VOLTAGE][4] = "n/a"
    issue = only(run(tmp_path, data), "column_not_numeric")
    assert issue["payload"] == {"file": "time series", "column": col.VOLTAGE, "row_index": 4, "value": "n/a"}


def test_numbers_stored_as_text_are_accepted(tmp_path):
    data = baseline()
    data[col.VOLTAGE] = [str(v) for v in data[col.VOLTAGE]]
    assert run(tmp_path, data).status == "ready"


def test_csv_without_time_column(tmp_path):
    data = baseline()
    del data[col.TIME]
    issue = only(run(tmp_path, data, "csv"), "time_column_missing")
    assert issue["severity"] == "error"
    assert col.CURRENT in issue["payload"]["available_columns"]
    # The message says how the file was read (text meant as Parquet is read as CSV).
    assert issue["payload"]["format"] == "csv"
    assert "read as CSV text" in issue["message"]


def test_missing_voltage_column(tmp_path):
    data = baseline()
    del data[col.VOLTAGE]
    issue = only(run(tmp_path, data), "required_column_missing")
    assert issue["payload"]["column"] == col.VOLTAGE


def test_empty_current_value(tmp_path):
    data = baseline()
    data[col.CURRENT][4] = None
    issue = only(run(tmp_path, data, "csv"), "value_missing")
    assert issue["payload"] == {"column": col.CURRENT, "row_index": 4, "num_rows": 1}


def test_fractional_cycle_count(tmp_path):
    data = baseline()
    data[col.CYCLE] = [0.0] * 8 + [0.5] * 8
    issue = only(run(tmp_path, data), "count_not_integer")
    assert issue["payload"] == {"column": col.CYCLE, "row_index": 8, "value": 0.5, "num_rows": 8}


@pytest.mark.parametrize("alias", ["Cycle number", "Cycle from cycler"])
def test_cycle_aliases(tmp_path, alias):
    data = baseline()
    data[alias] = data.pop(col.CYCLE)
    outcome = run(tmp_path, data, "csv")
    assert outcome.status == "ready", outcome.issues
    assert read(outcome.time_series_path)[col.CYCLE] == [0] * 8 + [1] * 8


def test_missing_cycle_count_is_all_zero(tmp_path):
    data = baseline()
    del data[col.CYCLE]
    outcome = run(tmp_path, data)
    assert read(outcome.time_series_path)[col.CYCLE] == [0] * 16
    assert read(outcome.cycles_path)[col.CYCLE] == [0]


def test_unknown_columns_are_dropped_with_a_warning(tmp_path):
    data = baseline()
    data["Operator"] = ["alice"] * 16
    outcome = run(tmp_path, data)
    issue = only(outcome, "unknown_columns_dropped")
    assert issue["severity"] == "warning" and issue["payload"]["columns"] == ["Operator"]
    assert "Operator" not in pq.read_schema(outcome.time_series_path).names


def test_semicolon_csv(tmp_path):
    path = tmp_path / "upload.csv"
    table = pa.table(baseline())
    pacsv.write_csv(table, str(path), pacsv.WriteOptions(delimiter=";"))
    outcome = process_upload(str(path), str(tmp_path), parse_options(None)[0])
    assert outcome.status == "ready", outcome.issues


def test_a_header_of_a_million_characters_is_an_unreadable_file(tmp_path):
    path = tmp_path / "upload.csv"
    path.write_text("Time [s],Current [A],Voltage [V]," + "x" * 1_000_000 + "\n0,1,3.7,1\n")
    outcome = process_upload(str(path), str(tmp_path / "out"), parse_options(None)[0])
    assert codes(outcome) == ["unreadable_file"]
    assert "header row" in outcome.issues[0]["message"]


def test_issues_stay_small_whatever_the_header_holds(tmp_path):
    # 200,000 columns and none of them a time column: the issue lists the first 100 and the count.
    path = tmp_path / "upload.csv"
    path.write_text(",".join(f"Col{i}" for i in range(200_000)) + "\n" + ",".join("1" for _ in range(200_000)) + "\n")
    outcome = process_upload(str(path), str(tmp_path / "out"), parse_options(None)[0])
    assert codes(outcome) == ["time_column_missing"]
    payload = outcome.issues[0]["payload"]
    assert payload["available_columns"] == [f"Col{i}" for i in range(100)]
    assert payload["available_columns_total"] == 200_000
    assert len(str(outcome.issues)) < 10_000
