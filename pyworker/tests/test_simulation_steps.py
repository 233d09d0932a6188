"""The steps summary on a hand-made time series (as a measurement would provide it)."""

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from cellar_worker.measurements.issues import parse_options
from cellar_worker.measurements.process import process_upload
from cellar_worker.simulation.steps_summary import SUMMARY_COLUMNS, summarize_steps


def segment(step, seconds, voltage, current, frequency=np.nan):
    time = np.arange(seconds + 1, dtype=float)
    return pd.DataFrame(
        {
            "Time [s]": time,
            "Voltage [V]": np.broadcast_to(voltage, time.shape).astype(float),
            "Current [A]": np.broadcast_to(current, time.shape).astype(float),
            "Step count": step,
            "Frequency [Hz]": frequency,
        }
    )


def joined(parts):
    offset, frames = 0.0, []
    for part in parts:
        part["Time [s]"] += offset
        offset = part["Time [s]"].iloc[-1] + 1
        frames.append(part)
    return pd.concat(frames, ignore_index=True)


def test_step_types_statistics_and_throughput_from_a_dataframe():
    ramp = np.linspace(0, 1, 61)
    parts = [
        segment(0, 60, 3.7, 0.0),  # rest
        segment(1, 60, 3.9 - 0.2 * ramp, 2.0),  # constant current discharge
        segment(2, 60, 4.2, -2.0 * np.exp(-3 * ramp)),  # constant voltage charge
        segment(3, 60, 3.8 - 0.2 * ramp, 10.0 / (3.8 - 0.2 * ramp)),  # constant power discharge
        segment(4, 60, 3.6 + 0.3 * ramp, -1.0 - ramp),  # nothing constant
        segment(5, 60, 3.6, 0.01, frequency=1000.0),  # impedance sweep
    ]
    table = joined(parts)

    summary = summarize_steps(table, labels={1: "CC"})
    assert summary.column_names == list(SUMMARY_COLUMNS)
    rows = summary.to_pylist()
    assert [row["Step type"] for row in rows] == [
        "Rest",
        "Constant current discharge",
        "Constant voltage charge",
        "Constant power discharge",
        "Unknown step type",
        "EIS",
    ]
    cc = rows[1]
    assert cc["Label"] == "CC" and rows[0]["Label"] == ""
    assert cc["Cycle count"] == 0
    assert cc["Duration [s]"] == 60
    assert cc["Start voltage [V]"] == pytest.approx(3.9) and cc["End voltage [V]"] == pytest.approx(3.7)
    assert cc["Discharge capacity [A.h]"] == pytest.approx(2.0 * 60 / 3600)
    assert cc["Charge capacity [A.h]"] == 0
    assert cc["Discharge energy [W.h]"] == pytest.approx(2.0 * 3.8 * 60 / 3600, rel=1e-6)
    assert rows[2]["Charge capacity [A.h]"] > 0 and rows[2]["Discharge capacity [A.h]"] == 0
    assert rows[3]["Mean power [W]"] == pytest.approx(10.0)


def test_step_types_are_the_measurement_pipelines(tmp_path):
    # A rest with one 20 mA sample: not every |I| is below 1 mA (the rule this summary
    # used to apply, which made it a constant current discharge), but the mean |I| is,
    # so measurements call it a rest, and so must simulations.
    blip = np.zeros(61)
    blip[30] = 0.02
    ramp = np.linspace(0, 1, 61)
    table = joined(
        [
            segment(0, 60, 3.7, blip),
            segment(1, 60, 3.9 - 0.2 * ramp, 2.0),
            segment(2, 60, 3.7, np.where(np.arange(61) % 2, 4e-4, -4e-4)),  # rest, every |I| small
            segment(3, 60, 3.6 + 0.3 * ramp, -1.0 - ramp),
        ]
    ).drop(columns="Frequency [Hz]")
    simulated = summarize_steps(table).column("Step type").to_pylist()

    source = tmp_path / "series.parquet"
    pq.write_table(pa.Table.from_pandas(table, preserve_index=False), source)
    options, option_issues = parse_options({"strict": False}, None, None, None)
    (tmp_path / "out").mkdir()
    outcome = process_upload(str(source), str(tmp_path / "out"), options, option_issues=option_issues)
    measured = pq.read_table(outcome.steps_path).column("Step type").to_pylist()

    assert simulated == measured == ["Rest", "Constant current discharge", "Rest", "Unknown step type"]
