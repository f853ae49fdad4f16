"""Fetching: cache, mirror, URL, checksum verification and the error when every source fails.

The download path is exercised against an HTTP server on the loopback interface.
"""

import hashlib
import socket
from pathlib import Path

import pytest

from faircompare.datasets.fetch import fetch_file
from faircompare.exceptions import DataFetchError

CONTENT = b"a,b\n1,2\n"
DIGEST = hashlib.sha256(CONTENT).hexdigest()


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


@pytest.fixture
def mirror(tmp_path: Path) -> Path:
    folder = tmp_path / "mirror"
    folder.mkdir()
    (folder / "data.csv").write_bytes(CONTENT)
    return folder


def closed_port_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/data.csv"  # nothing listens there any more


def leftovers(cache: Path) -> list[str]:
    return [p.name for p in cache.iterdir() if p.name.endswith(".part")]


def test_copies_from_the_mirror_into_the_cache(cache, mirror):
    lines = []
    path = fetch_file("data.csv", DIGEST, None, cache=cache, mirror=mirror, say=lines.append)
    assert path == cache / "data.csv"
    assert path.read_bytes() == CONTENT
    assert lines == [f"fetched data.csv from {mirror / 'data.csv'}"]


def test_a_valid_cached_file_is_used_without_any_source(cache, mirror):
    fetch_file("data.csv", DIGEST, None, cache=cache, mirror=mirror)
    (mirror / "data.csv").unlink()
    assert fetch_file("data.csv", DIGEST, None, cache=cache, mirror=mirror).read_bytes() == CONTENT


def test_a_corrupted_cached_file_is_detected_and_replaced(cache, mirror):
    fetch_file("data.csv", DIGEST, None, cache=cache, mirror=mirror)
    (cache / "data.csv").write_bytes(b"a,b\n1,3\n")
    with pytest.warns(UserWarning, match="does not match its SHA-256"):
        path = fetch_file("data.csv", DIGEST, None, cache=cache, mirror=mirror)
    assert path.read_bytes() == CONTENT


def test_downloads_from_the_url(cache, server):
    folder, base = server
    (folder / "data.csv").write_bytes(CONTENT)
    path = fetch_file("data.csv", DIGEST, base + "data.csv", cache=cache)
    assert path.read_bytes() == CONTENT
    assert leftovers(cache) == []


def test_a_mirror_file_with_a_wrong_checksum_is_rejected_and_the_url_used(cache, mirror, server):
    (mirror / "data.csv").write_bytes(b"tampered\n")
    folder, base = server
    (folder / "data.csv").write_bytes(CONTENT)
    path = fetch_file("data.csv", DIGEST, base + "data.csv", cache=cache, mirror=mirror)
    assert path.read_bytes() == CONTENT


def test_a_download_with_a_wrong_checksum_is_rejected_and_never_cached(cache, server):
    folder, base = server
    (folder / "data.csv").write_bytes(b"tampered\n")
    with pytest.raises(DataFetchError, match="checksum mismatch") as raised:
        fetch_file("data.csv", DIGEST, base + "data.csv", cache=cache)
    assert hashlib.sha256(b"tampered\n").hexdigest() in str(raised.value)
    assert not (cache / "data.csv").exists()
    assert leftovers(cache) == []


def test_when_every_source_fails_one_error_lists_them_and_the_fix(cache, tmp_path):
    missing_mirror = tmp_path / "no-such-mirror"
    url = closed_port_url()
    with pytest.raises(DataFetchError) as raised:
        fetch_file("data.csv", DIGEST, url, cache=cache, mirror=missing_mirror, timeout=5)
    message = str(raised.value)
    assert f"could not obtain 'data.csv' (sha256 {DIGEST})" in message
    assert f"{missing_mirror / 'data.csv'}: not found" in message
    assert f"{url}: " in message
    assert "FAIRCOMPARE_MIRROR" in message and "--mirror" in message
    assert isinstance(raised.value, OSError)


def test_a_missing_file_on_the_server_is_reported(cache, server):
    _, base = server
    with pytest.raises(DataFetchError, match="404"):
        fetch_file("data.csv", DIGEST, base + "data.csv", cache=cache)


@pytest.mark.parametrize("name", ["../victim.txt", "sub/data.csv", "/tmp/absolute.csv", "..", ""])
def test_a_name_that_leaves_the_cache_is_refused_before_anything_is_touched(
    name, cache, mirror, tmp_path
):
    victim = tmp_path / "victim.txt"  # ../victim.txt from the cache and from the mirror
    victim.write_text("keep me")
    with pytest.raises(DataFetchError, match="must be a plain file name"):
        fetch_file(name, DIGEST, None, cache=cache, mirror=mirror)
    assert victim.read_text() == "keep me"  # today's main deleted it on a checksum mismatch
    assert sorted(p.name for p in cache.iterdir()) == []


def test_a_link_out_of_the_cache_is_refused(cache, tmp_path):
    outside = tmp_path / "outside.csv"
    outside.write_text("not data")
    cache.mkdir()
    (cache / "data.csv").symlink_to(outside)
    with pytest.raises(DataFetchError, match="leads outside"):
        fetch_file("data.csv", DIGEST, None, cache=cache)
    assert outside.read_text() == "not data"


def test_a_corrupted_cached_file_is_kept_when_no_source_can_replace_it(cache, mirror):
    fetch_file("data.csv", DIGEST, None, cache=cache, mirror=mirror)
    (cache / "data.csv").write_bytes(b"mine\n")
    (mirror / "data.csv").unlink()
    with pytest.warns(UserWarning), pytest.raises(DataFetchError):
        fetch_file("data.csv", DIGEST, None, cache=cache, mirror=mirror)
    assert (cache / "data.csv").read_bytes() == b"mine\n"
