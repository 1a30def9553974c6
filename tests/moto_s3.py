"""A local S3-compatible server for the object-store tests: moto's server mode on
127.0.0.1 (a free port), one per session, with fake credentials.

``server()`` starts it once and gives its endpoint; ``s3_environment(monkeypatch,
endpoint)`` points the standard AWS variables at it for one test (restored after);
``filesystem(endpoint)`` is a pyarrow ``S3FileSystem`` on it with low timeouts, for
writing the test data and for the tests of ``filesystem=``. Skips, naming the
packages, where moto or pyarrow's S3 support is missing.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

KEY, SECRET, REGION = "testing", "testing", "us-east-1"
_started: list[Any] = []


def server() -> str:
    """The endpoint (``http://127.0.0.1:PORT``) of the session's server."""
    if not _started:
        pytest.importorskip("boto3", reason="the object-store tests need boto3 (test extra)")
        moto_server = pytest.importorskip(
            "moto.server", reason="the object-store tests need moto[server] (test extra)")
        fs = pytest.importorskip("pyarrow.fs")
        if not getattr(fs, "S3FileSystem", None):
            pytest.skip("this pyarrow was built without S3 support")
        logging.getLogger("werkzeug").setLevel(logging.ERROR)     # no line per request
        srv = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        srv.start()
        host, port = srv.get_host_and_port()
        _started.append((srv, f"http://{host}:{port}"))
    return str(_started[0][1])


def stop() -> None:
    """Stop the server (end of session)."""
    while _started:
        _started.pop()[0].stop()


def s3_environment(monkeypatch: pytest.MonkeyPatch, endpoint: str | None) -> None:
    """The standard AWS variables pointing at ``endpoint`` (None: no endpoint set), and
    nothing of the machine's own configuration read."""
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL_S3",
                 "AWS_ENDPOINT_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", KEY)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    monkeypatch.setenv("AWS_REGION", REGION)
    monkeypatch.setenv("AWS_DEFAULT_REGION", REGION)
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent/aws-config")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/aws-credentials")
    if endpoint is not None:
        monkeypatch.setenv("AWS_ENDPOINT_URL", endpoint)


def filesystem(endpoint: str, patient: bool = False, **options: Any) -> Any:
    """A pyarrow ``S3FileSystem`` on ``endpoint``: credentials given, one attempt and
    short timeouts (an error comes in seconds, never a hang); ``patient``: three
    attempts and long timeouts, for writing the test data on a busy machine."""
    import pyarrow.fs as pafs
    host = endpoint.split("://", 1)[1]
    settings: dict[str, Any] = dict(
        access_key=KEY, secret_key=SECRET, region=REGION, scheme="http",
        endpoint_override=host, connect_timeout=5 if patient else 1,
        request_timeout=60 if patient else 5,
        retry_strategy=pafs.AwsStandardS3RetryStrategy(max_attempts=3 if patient else 1))
    settings.update(options)
    return pafs.S3FileSystem(**settings)


def make_bucket(endpoint: str, bucket: str) -> None:
    import boto3
    boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=KEY,
                 aws_secret_access_key=SECRET, region_name=REGION).create_bucket(Bucket=bucket)


def listing(endpoint: str, bucket: str) -> list[tuple[str, int, Any]]:
    """Every object of a bucket with its size and modification time."""
    import pyarrow.fs as pafs
    store = filesystem(endpoint, patient=True)
    infos = store.get_file_info(pafs.FileSelector(bucket, recursive=True))
    return sorted((i.path, i.size, i.mtime) for i in infos)
