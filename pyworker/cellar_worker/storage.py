"""Object storage shared by the Python activities: a local folder or an S3 bucket.

Configuration (environment, read through ``cellar_worker.settings``):

- ``STORAGE_DRIVER``: ``fs`` (default) or ``s3``.
- fs: ``STORAGE_DIR`` is the root folder; the object key ``a/b.parquet`` is the file
  ``$STORAGE_DIR/a/b.parquet``. Writes go to a temporary file in the same folder and are
  renamed into place, so a reader never sees half an object.
- s3: ``S3_ENDPOINT``, ``S3_REGION`` (default ``us-east-1``), ``S3_BUCKET``,
  ``S3_ACCESS_KEY_ID``, ``S3_SECRET_ACCESS_KEY``; path-style addressing (works with
  S3-compatible servers such as versitygw).

A missing object raises ``FileNotFoundError`` with either driver. Keys are never logged.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import tempfile
from typing import BinaryIO

from . import settings

_S3_DELETE_BATCH = 1000  # DeleteObjects accepts at most 1000 keys per call


def _driver() -> str:
    return settings.current().storage_driver


def check_key(key: str) -> str:
    """Return ``key`` if it is a safe relative object key, else raise ``ValueError``."""
    if not isinstance(key, str) or not key or key.startswith("/") or "\\" in key:
        raise ValueError("object keys are non-empty relative paths separated by '/'")
    if any(part in ("", ".", "..") for part in key.rstrip("/").split("/")):
        raise ValueError("object keys must not contain empty, '.' or '..' segments")
    return key


# ----------------------------------------------------------------------------- fs driver


def _root() -> str:
    root = settings.current().storage_dir
    if not root:
        raise RuntimeError("STORAGE_DIR must be set when STORAGE_DRIVER is 'fs'")
    return os.path.abspath(root)


def _fs_path(key: str) -> str:
    return os.path.join(_root(), *check_key(key).split("/"))


def _fs_write(key: str, write) -> None:
    """Write through a temporary sibling file, then rename it over the target.

    The file is synced before the rename, and its folder (and any folder made for it) after:
    an object stored is still there after a power loss.
    """
    path = _fs_path(key)
    folder = os.path.dirname(path)
    made = _make_folders(folder)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    for synced in [folder, *(os.path.dirname(f) for f in made)]:
        _sync_folder(synced)


def _make_folders(folder: str) -> list[str]:
    """Create ``folder`` and its missing parents; the folders created, deepest first."""
    missing = []
    while not os.path.isdir(folder):
        missing.append(folder)
        folder = os.path.dirname(folder)
    for created in reversed(missing):
        with contextlib.suppress(FileExistsError):  # another writer made it meanwhile
            os.mkdir(created)
    return missing


def _sync_folder(folder: str) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fs_delete_prefix(prefix: str) -> None:
    root = _root()
    # The prefix may end inside a file name ("runs/abc" matches "runs/abc.parquet"), so
    # walk its folder and compare keys rather than deleting one directory.
    folder_key = prefix.rsplit("/", 1)[0] if "/" in prefix else ""
    folder = os.path.join(root, *folder_key.split("/")) if folder_key else root
    if not os.path.isdir(folder):
        return
    for dirpath, _dirnames, filenames in os.walk(folder, topdown=False):
        for name in filenames:
            path = os.path.join(dirpath, name)
            key = os.path.relpath(path, root).replace(os.sep, "/")
            if key.startswith(prefix):
                os.unlink(path)
        rel = os.path.relpath(dirpath, root).replace(os.sep, "/") + "/"
        if dirpath != root and rel.startswith(prefix) and not os.listdir(dirpath):
            os.rmdir(dirpath)


# ----------------------------------------------------------------------------- s3 driver


def _s3_settings() -> tuple[str | None, str, str, str | None, str | None]:
    s = settings.current()
    if not s.s3_bucket:
        raise RuntimeError("S3_BUCKET must be set when STORAGE_DRIVER is 's3'")
    return (s.s3_endpoint, s.s3_region, s.s3_bucket, s.s3_access_key_id, s.s3_secret_access_key)


@functools.lru_cache(maxsize=4)
def _s3_client(endpoint, region, access_key_id, secret_access_key):
    import boto3
    from botocore.config import Config

    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name=region,
        aws_access_key_id=access_key_id,
        aws_secret_access_key=secret_access_key,
        config=Config(s3={"addressing_style": "path"}, signature_version="s3v4"),
    )


def _s3() -> tuple[object, str]:
    endpoint, region, bucket, access_key_id, secret = _s3_settings()
    return _s3_client(endpoint, region, access_key_id, secret), bucket


def _is_missing(error) -> bool:
    code = str(error.response.get("Error", {}).get("Code", ""))
    return code in ("404", "NoSuchKey", "NotFound")


def _s3_call(fn):
    from botocore.exceptions import ClientError

    try:
        return fn()
    except ClientError as error:
        if _is_missing(error):
            raise FileNotFoundError("object not found in storage") from None
        raise


# ----------------------------------------------------------------------------- public API


def open_read(key: str) -> BinaryIO:
    """Open an object for reading as a seekable binary file (usable by pyarrow).

    The caller closes it. With S3 the object is first spooled to a temporary file,
    since Parquet readers need to seek.
    """
    check_key(key)
    if _driver() == "fs":
        return open(_fs_path(key), "rb")
    client, bucket = _s3()
    spool = tempfile.TemporaryFile()
    try:
        _s3_call(lambda: client.download_fileobj(bucket, key, spool))
    except BaseException:
        spool.close()
        raise
    spool.seek(0)
    return spool


def download_to(key: str, local_path: str) -> None:
    """Copy an object to a local file (parent folders are created)."""
    check_key(key)
    os.makedirs(os.path.dirname(os.path.abspath(local_path)), exist_ok=True)
    if _driver() == "fs":
        shutil.copyfile(_fs_path(key), local_path)
        return
    client, bucket = _s3()
    _s3_call(lambda: client.download_file(bucket, key, local_path))


def upload_file(local_path: str, key: str) -> None:
    """Store a local file under ``key``, replacing any previous object."""
    check_key(key)
    if _driver() == "fs":
        with open(local_path, "rb") as source:
            _fs_write(key, lambda out: shutil.copyfileobj(source, out))
        return
    client, bucket = _s3()
    client.upload_file(local_path, bucket, key)


def put_bytes(key: str, data: bytes) -> None:
    """Store ``data`` under ``key``, replacing any previous object."""
    check_key(key)
    if _driver() == "fs":
        _fs_write(key, lambda out: out.write(data))
        return
    client, bucket = _s3()
    client.put_object(Bucket=bucket, Key=key, Body=data)


def exists(key: str) -> bool:
    check_key(key)
    if _driver() == "fs":
        return os.path.isfile(_fs_path(key))
    client, bucket = _s3()
    try:
        _s3_call(lambda: client.head_object(Bucket=bucket, Key=key))
    except FileNotFoundError:
        return False
    return True


def delete_prefix(prefix: str) -> None:
    """Delete every object whose key starts with ``prefix`` (e.g. ``simulations/org/id/``)."""
    check_key(prefix)
    if _driver() == "fs":
        _fs_delete_prefix(prefix)
        return
    client, bucket = _s3()
    paginator = client.get_paginator("list_objects_v2")
    batch: list[dict] = []
    for page in paginator.paginate(Bucket=bucket, Prefix=prefix):
        for item in page.get("Contents", []):
            batch.append({"Key": item["Key"]})
            if len(batch) == _S3_DELETE_BATCH:
                client.delete_objects(Bucket=bucket, Delete={"Objects": batch, "Quiet": True})
                batch = []
    if batch:
        client.delete_objects(Bucket=bucket, Delete={"Objects": batch, "Quiet": True})
