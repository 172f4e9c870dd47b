"""mlp_ref: a small NumPy reference implementation of the multi-layer perceptron.

Conventions used everywhere in the package (see each docstring for shapes):

* row-batch: an input batch ``X`` has shape ``(B, d_in)``;
* a layer's weights ``W`` have shape ``(d_in, d_out)`` and its bias ``b`` shape ``(d_out,)``,
  so a layer computes ``X @ W + b`` with shape ``(B, d_out)``;
* PyTorch's ``(out, in)`` layout is reached only through explicit conversion functions;
* every random function takes a seed or a ``numpy.random.Generator``.

The public names are re-exported here, grouped by the module that defines them.
"""

from mlp_ref.validation import ShapeError  # noqa: F401

# --- activations, network, initialization, losses, training (core) ---
from mlp_ref.activations import (  # noqa: F401
    ACTIVATIONS, get_activation, identity, identity_grad, relu, relu_grad, leaky_relu,
    leaky_relu_grad, sigmoid, sigmoid_grad, tanh, tanh_grad, gelu, gelu_grad, gelu_tanh,
    gelu_tanh_grad, silu, silu_grad, softplus, softplus_grad, softmax, log_softmax,
    PRELU_INIT, prelu, prelu_grad, prelu_grad_slope,
)
from mlp_ref.network import (  # noqa: F401
    MLP, ForwardCache, Gradients, affine, dense, linear_from_torch, linear_to_torch,
)
from mlp_ref.initialization import (  # noqa: F401
    INITIALIZERS, get_initializer, he_normal, he_uniform, kaiming_gain, xavier_normal,
    xavier_uniform, zeros,
)
from mlp_ref.losses import (  # noqa: F401
    binary_cross_entropy_with_logits, binary_cross_entropy_with_logits_grad, cross_entropy,
    cross_entropy_grad, mse, mse_grad,
)
from mlp_ref.training import History, central_difference, fit, grad_check, sgd_step  # noqa: F401

# --- lesson 2: Rosenblatt's perceptron ---
from mlp_ref.perceptron import PerceptronRun, PerceptronStep, mistake_bound, perceptron_predict, train_perceptron  # noqa: F401
# --- lesson 5: learning the weights ---
from mlp_ref.descent import LineFit, descend  # noqa: F401
from mlp_ref.multiply_adds import MultiplyAdds, count_multiply_adds  # noqa: F401
from mlp_ref.learnability import (  # noqa: F401
    XOR_STUDY, XOR_X, XOR_Y, XorRuns, XorStudy, train_xor, train_xor_readable, xor_outcomes,
)

# --- counting, traces, approximation, data ---
from mlp_ref.tables import format_count, format_number, markdown_table  # noqa: F401
from mlp_ref.counting import LayerRow, LayerTable, count_params, layer_table, layer_table_markdown  # noqa: F401
from mlp_ref.counting import MemoryEstimate, memory_estimate  # noqa: F401
from mlp_ref.trace import Step, Trace, trace  # noqa: F401
from mlp_ref.approximation import (  # noqa: F401
    ReLUNetwork, count_linear_pieces, max_error, relu_interpolant, sawtooth, tent, tent_network,
)
from mlp_ref.data import Splits, check_partition, digits_splits, load_mnist, load_mnist_npz, read_idx  # noqa: F401
from mlp_ref.transformer_counts import (  # noqa: F401
    Breakdown, Component, MoECount, attention_params, deepseek_v3, embedding_params, ffn_params,
    gated_ffn_params, gpt2_small, mla_params, moe_params, qwen3_0_6b, swiglu_hidden, transformer_base,
)

# --- character-level language model ---
from mlp_ref.charlm_data import Vocabulary, build_windows, load_census_names, load_words, split_words, window_rows  # noqa: F401
# Generic names (forward, backward, cross_entropy, train, ...) stay in mlp_ref.charlm:
# at the top level they would shadow the MLP's own (mlp_ref.cross_entropy is the loss).
from mlp_ref.charlm import (  # noqa: F401
    Bigram, CharMLP, CharMLPConfig, bigram_loss, fit_bigram, init_char_mlp, sample_words, step_decay,
)

# --- lesson 9: the FFN inside a transformer ---
from mlp_ref.ffn import Routing, conv1d, ffn, gated_ffn, moe_ffn, route_top_k  # noqa: F401

# --- lesson 7: initialization (signal propagation) ---
from mlp_ref.propagation import StackStatistics, layer_statistics, random_stack  # noqa: F401

# --- lesson 4: activations and output heads ---
from mlp_ref.heads import OUTPUT_HEADS, OUTPUT_LOSSES, head_loss, head_loss_and_grads, head_loss_grad  # noqa: F401

# --- Lab A: digits experiments (the command line is mlp_ref.train_digits, not imported here) ---
from mlp_ref.experiments import (  # noqa: F401
    MNIST_IDX_FILES, BaselineResult, RunResult, SizeResult, choose_by_validation, confusion_matrix,
    fit_hist_gradient_boosting, fit_logistic_regression, fit_mlp_classifier, mnist_splits, train_mlp,
    width_depth_study,
)
