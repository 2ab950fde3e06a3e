"""The environment pages in docs/rl/ say what the code does, and the README's training loop runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")

from mindtable.rl import caida_libre, carrera_de_mente, eesti_malumang, neurorace, pages, the_mind
from mindtable.rl._quiz import QUIZ_FEATURES

ROOT = Path(__file__).resolve().parents[2]


def test_docs_rl_pages_are_up_to_date():
    assert pages.main(["--check"]) == 0, "run: python -m mindtable.rl.pages"


@pytest.mark.parametrize("module", [carrera_de_mente, caida_libre, eesti_malumang], ids=lambda m: m.__name__)
@pytest.mark.parametrize("players", [2, 5])
def test_quiz_feature_names_name_every_entry_of_the_observation(module, players):
    env = module.raw_env(players=players)
    env.reset(seed=1)
    names = [*QUIZ_FEATURES, *env.feature_names]
    assert len(names) == len(set(names))
    assert env.observe(env.agent_selection)["observation"].shape == (len(names),)


@pytest.mark.parametrize("module", [the_mind, neurorace], ids=lambda m: m.__name__)
def test_realtime_feature_names_name_every_entry_of_the_observation(module):
    env = module.parallel_env(players=3)
    observations, _ = env.reset(seed=1)
    names = env.feature_names()
    assert len(names) == len(set(names))
    assert observations["player_0"]["observation"].shape == (len(names),)


def test_readme_training_loop_runs():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("### Reinforcement learning") :]
    code = re.search(r"```python\n(.*?)```", section, re.S)
    assert code is not None
    lines = [line for line in code.group(1).splitlines() if line.strip()]
    loop = lines[next(i for i, line in enumerate(lines) if line.startswith("for ")) :]
    assert len(loop) <= 13  # the training loop itself, short enough to read at a glance
    namespace: dict[str, object] = {}
    exec(compile(code.group(1).replace("range(300)", "range(3)"), "README.md", "exec"), namespace)
    assert namespace["q"]  # it learned values for what it saw
