"""Issue 15, item 11: the API keeps its own contract. A bounded Schemathesis run (every check: status codes
the document lists, response schemas, schema-valid requests accepted, invalid ones refused, ``405`` with the
right ``Allow``...) against a live server finds nothing, and the server logs no traceback."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCHEMATHESIS = shutil.which("schemathesis", path=str(Path(sys.executable).parent))


@pytest.mark.skipif(SCHEMATHESIS is None, reason="schemathesis is not installed (pip install -e '.[dev]')")
def test_the_api_keeps_its_openapi_contract(start_server, tmp_path) -> None:
    server = start_server()
    assert SCHEMATHESIS is not None
    report = tmp_path / "schemathesis.json"
    run = subprocess.run(
        [
            SCHEMATHESIS,
            "run",
            f"{server.http}/openapi.json",
            "--checks",
            "all",
            "--max-examples",
            "25",
            "--seed",
            "15",
            "--generation-database",
            "none",
            "--workers",
            "1",
            "--report",
            "ndjson",
            "--report-ndjson-path",
            str(report),
            "--no-color",
        ],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=tmp_path,
    )
    summary = run.stdout[-4000:]
    assert run.returncode == 0, summary
    assert " passed" in summary and "failure" not in summary.lower(), summary
    assert report.exists() and any(json.loads(line) for line in report.read_text().splitlines())
    server.stop()
    assert "Traceback" not in server.log(), server.log()
