"""Tests of mlp_ref.labs.charlm.experiment: the page's settings are the defaults of CharLMSettings."""

from __future__ import annotations

from pathlib import Path

from mlp_ref.labs.charlm.experiment import CharLMSettings
from tests import pagekit


ROOT = Path(__file__).resolve().parents[3]


def test_lab_b_settings_cell_is_plain_assignments_of_the_defaults():
    """The build checks this too (MLP_SITE_BUILD); this test says it without building the site."""
    values = pagekit.first_code_cell(ROOT / "docs" / "labs" / "charlm.py")
    settings = CharLMSettings(steps=values["STEPS"], seed=values["SEED"], n_seeds=values["SEEDS"],
                           context=values["CONTEXT"], emb_dim=values["EMBEDDING"], hidden=values["HIDDEN"],
                           batch_size=values["BATCH_SIZE"], lr=values["LEARNING_RATE"],
                           momentum=values["BN_MOMENTUM"], alpha=values["ALPHA"], n_samples=values["SAMPLES"])
    assert settings == CharLMSettings()
    assert values["WORDS_FILE"] is None and values["BUILD_VOCAB"] is False and values["LOWERCASE"] is False
    assert values["LANGUAGE"] == "en" and len(values) == 15
