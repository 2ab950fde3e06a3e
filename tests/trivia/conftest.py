"""Shared helpers for the trivia tests: where the third-party files are, and the CLI under test."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED_TRIVIA = REPO.parent / "shared" / "data" / "trivia"


@pytest.fixture
def shared() -> Path:
    """The third-party trivia files (never copied into the repository); skips the test when absent."""
    if not SHARED_TRIVIA.is_dir():
        pytest.skip(f"third-party trivia files not found at {SHARED_TRIVIA} (../shared/data/trivia)")
    return SHARED_TRIVIA


@pytest.fixture
def questions_cli() -> ModuleType:
    """``mindtable.cli.questions``. Loaded from its file when the ``mindtable.cli`` package cannot be imported
    (another command group being broken must not hide this one's tests)."""
    try:
        return importlib.import_module("mindtable.cli.questions")
    except ImportError:
        path = REPO / "mindtable" / "cli" / "questions.py"
        spec = importlib.util.spec_from_file_location("_mindtable_cli_questions_under_test", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module


@pytest.fixture(autouse=True)
def _private_bank_cache(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Keep the bank parse cache out of the user's home during tests."""
    monkeypatch.setenv("MINDTABLE_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
