"""The argument checks every module uses: one message shape, booleans never taken for numbers."""

import numpy as np
import pytest

from mlp_ref import kaiming_gain
from mlp_ref.labs.charlm.experiment import CharLMSettings
from mlp_ref.labs.charlm.model import CharMLPConfig, init_char_mlp, train
from mlp_ref.validation import check_choice, check_int, check_real


@pytest.mark.parametrize("args, message", [
    (("epochs", 0, 1), "epochs: expected a positive integer, received 0"),
    (("epochs", True, 1), "epochs: expected a positive integer, received True"),
    (("epochs", 2.0, 1), "epochs: expected a positive integer, received 2.0"),
    (("seed", -1, 0), "seed: expected a non-negative integer, received -1"),
    (("n", 1, 2), "n: expected an integer >= 2, received 1"),
    (("top_k", 5, 1, 4), "top_k: expected an integer from 1 to 4, received 5"),
])
def test_check_int_names_the_argument_and_the_range(args, message):
    with pytest.raises(ValueError, match=f"^{message}$"):
        check_int(*args)


def test_check_int_accepts_numpy_integers():
    assert check_int("n", np.int64(3), 1) == 3 and type(check_int("n", np.int64(3), 1)) is int


@pytest.mark.parametrize("args, kwargs, message", [
    (("lr", 0.0, 0), {}, r"lr: expected a positive finite number, received 0.0"),
    (("lr", float("inf"), 0), {}, r"lr: expected a positive finite number, received inf"),
    (("lr", False, 0), {}, r"lr: expected a positive finite number, received False"),
    (("a", "1"), {}, r"a: expected a finite real number, received '1'"),
    (("eps", 1.0, 0, 1), {}, r"eps: expected a number in \(0, 1\), received 1.0"),
    (("momentum", 0.0, 0, 1), dict(high_closed=True), r"momentum: expected a number in \(0, 1\], received 0.0"),
])
def test_check_real_names_the_argument_and_the_range(args, kwargs, message):
    with pytest.raises(ValueError, match=f"^{message}$"):
        check_real(*args, **kwargs)


def test_check_choice_lists_the_choices_in_order():
    with pytest.raises(ValueError, match="^engine: unknown name 'x'; valid names are readable, fast$"):
        check_choice("engine", "x", ["readable", "fast"])


def test_charlm_train_rejects_a_boolean_step_count():
    model = init_char_mlp(CharMLPConfig(vocab_size=5, context=2, emb_dim=2, hidden=3), seed=0)
    X, Y = np.zeros((4, 2), int), np.zeros(4, int)
    with pytest.raises(ValueError, match="steps: expected a positive integer, received True"):
        train(model, X, Y, steps=True, batch_size=2, seed=0)


@pytest.mark.parametrize("make, message", [
    (lambda: CharMLPConfig(5, dtype="float16"), "dtype: unknown name 'float16'; valid names are float64, float32"),
    (lambda: CharMLPConfig(5, init="he"), "init: unknown name 'he'; valid names are naive, scaled_output, kaiming"),
    (lambda: kaiming_gain("swish"), "activation: unknown name 'swish'; valid names are identity, leaky_relu, "
                                    "linear, relu, selu, sigmoid, tanh"),
    (lambda: kaiming_gain(None), "activation: unknown name None; valid names are"),
    (lambda: kaiming_gain("leaky_relu", slope="0.2"), r"slope: expected a finite real number, received '0.2'"),
    (lambda: CharLMSettings(batch_size=1), r"batch_size: expected an integer >= 2 \(batch normalization needs"),
    (lambda: CharLMSettings(batch_size=True), "batch_size: expected an integer >= 2"),
])
def test_settings_and_gains_are_checked_by_this_module(make, message):
    """The checks that were hand-written in charlm's model and settings and in kaiming_gain."""
    with pytest.raises(ValueError, match=f"^{message}"):
        make()


def test_check_real_finite_false_takes_any_real_number():
    """format_number prints nan and inf, so its check is check_real(..., finite=False)."""
    assert np.isnan(check_real("x", float("nan"), finite=False)) and check_real("x", -np.inf, finite=False) == -np.inf
    with pytest.raises(TypeError, match="^x: expected a real number, received '1'$"):
        check_real("x", "1", error=TypeError, finite=False)
    with pytest.raises(ValueError, match="^x: expected a real number, received True$"):
        check_real("x", True, finite=False)
    with pytest.raises(ValueError, match="finite=False takes no bounds"):
        check_real("x", 1.0, 0, finite=False)
