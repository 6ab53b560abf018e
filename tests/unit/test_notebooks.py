"""The chapters as notebooks: what ``make lab`` serves, and a converted chapter executed by nbconvert.

Both start real processes (a Jupyter server on the loopback address, a kernel), so they are marked ``book_build``
and left out of ``make unit``.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import jupytext
import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
CHAPTER = "book/payne1998_vdm/01_worked_example.md"
SMALL = "book/appendix/datasets.md"  # a short page that reads no file by a relative path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, token: str):
    request = urllib.request.Request(url, headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


@pytest.mark.book_build
def test_a_chapter_opens_through_the_contents_api_as_a_notebook(tmp_path):
    port, token = _free_port(), "lazylib-test"
    server = subprocess.Popen(
        [
            BIN / "jupyter-server",
            f"--ServerApp.root_dir={ROOT}",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            "--ServerApp.port_retries=0",
            "--ServerApp.open_browser=False",
            "--allow-root",  # CI runs as root
            f"--IdentityProvider.token={token}",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path)},
    )
    try:
        base = f"http://127.0.0.1:{port}/api/contents/"
        deadline = time.monotonic() + 120
        while True:
            try:
                _get(base, token)
                break
            except (urllib.error.URLError, ConnectionError):
                if time.monotonic() > deadline or server.poll() is not None:
                    raise AssertionError(f"the Jupyter server did not answer: {server.stderr.read()[-2000:]}") from None
                time.sleep(0.5)
        model = _get(f"{base}{CHAPTER}?type=notebook&content=1", token)
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert model["type"] == "notebook" and model["path"] == CHAPTER
    cells = model["content"]["cells"]
    expected = jupytext.read(ROOT / CHAPTER, fmt="md:myst").cells
    assert [c["cell_type"] for c in cells] == [c.cell_type for c in expected]
    assert [c["source"] for c in cells if c["cell_type"] == "code"] == [
        c.source for c in expected if c.cell_type == "code"
    ]
    assert model["content"]["metadata"]["kernelspec"]["name"] == "python3"


@pytest.mark.book_build
def test_a_converted_chapter_executes_with_nbconvert(tmp_path):
    notebook = tmp_path / "datasets.ipynb"
    nbformat.write(jupytext.read(ROOT / SMALL, fmt="md:myst"), notebook)
    done = subprocess.run(
        [BIN / "jupyter-nbconvert", "--to", "notebook", "--execute", "--output", "executed", notebook],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "LAZYLIB_SCORECARD_DIR": str(tmp_path / "records")},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    executed = nbformat.read(tmp_path / "executed.ipynb", as_version=4)
    code = [cell for cell in executed.cells if cell.cell_type == "code"]
    assert code and all(cell.execution_count for cell in code)
    assert not [o for cell in code for o in cell.outputs if o.output_type == "error"]
    assert any(o.get("data", {}).get("text/html") for cell in code for o in cell.outputs)  # the data-set table
