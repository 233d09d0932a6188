"""The local-folder storage driver used by the simulation activities."""

import pytest

from cellar_worker import storage


def test_fs_round_trip(fs_storage, tmp_path):
    assert not storage.exists("simulations/org/a/time_series.parquet")

    storage.put_bytes("simulations/org/a/time_series.parquet", b"series")
    source = tmp_path / "steps.parquet"
    source.write_bytes(b"steps")
    storage.upload_file(str(source), "simulations/org/a/steps.parquet")
    storage.put_bytes("simulations/org/ab/other.bin", b"keep")

    assert storage.exists("simulations/org/a/steps.parquet")
    with storage.open_read("simulations/org/a/time_series.parquet") as handle:
        assert handle.read() == b"series"
    copy = tmp_path / "out" / "steps.parquet"
    storage.download_to("simulations/org/a/steps.parquet", str(copy))
    assert copy.read_bytes() == b"steps"
    # Writes go through a temporary file that is renamed into place: nothing is left over.
    assert sorted(p.name for p in (fs_storage / "simulations" / "org" / "a").iterdir()) == [
        "steps.parquet",
        "time_series.parquet",
    ]

    storage.delete_prefix("simulations/org/a/")
    assert not storage.exists("simulations/org/a/steps.parquet")
    assert not (fs_storage / "simulations" / "org" / "a").exists()
    assert storage.exists("simulations/org/ab/other.bin")
    with pytest.raises(FileNotFoundError):
        storage.open_read("simulations/org/a/steps.parquet")


@pytest.mark.parametrize("key", ["", "/etc/passwd", "a/../b", "a//b", "a\\b"])
def test_keys_cannot_escape_the_root(fs_storage, key):
    with pytest.raises(ValueError):
        storage.put_bytes(key, b"x")
