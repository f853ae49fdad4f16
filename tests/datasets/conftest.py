"""Fixtures of the dataset tests: an HTTP server on the loopback interface."""

import functools
import http.server
import threading
from pathlib import Path

import pytest


@pytest.fixture
def server(tmp_path: Path):
    """Serve a folder over HTTP on 127.0.0.1; yields (folder, base URL)."""
    folder = tmp_path / "served"
    folder.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    handler.log_message = lambda *args: None
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield folder, f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()
