"""mlp_ref: a small NumPy reference implementation of the multi-layer perceptron.

Conventions used everywhere in the package (see each docstring for shapes):

* row-batch: an input batch ``X`` has shape ``(B, d_in)``;
* a layer's weights ``W`` have shape ``(d_in, d_out)`` and its bias ``b`` shape ``(d_out,)``,
  so a layer computes ``X @ W + b`` with shape ``(B, d_out)``;
* PyTorch's ``(out, in)`` layout is reached only through explicit conversion functions;
* every random function takes a seed or a ``numpy.random.Generator``.

Layout: the math the lessons teach is in the modules at the top of the package, and their
public names are re-exported here. These modules import nothing from the two subpackages
that sit beside them, which are imported by name:

* :mod:`mlp_ref.course`: turning results into page content (number formatting, Markdown
  tables, worked traces, figures, checked claims, the two editions' words), such as
  ``from mlp_ref.course.trace import trace``.
* :mod:`mlp_ref.labs`: the two labs, ``mlp_ref.labs.digits`` (Lab A) and
  ``mlp_ref.labs.charlm`` (Lab B), each with its data, experiment, report and command line
  (``python -m mlp_ref.labs.digits``, ``python -m mlp_ref.labs.charlm``).
"""

from mlp_ref.validation import ShapeError
from mlp_ref.activations import (
    ACTIVATIONS, get_activation, identity, identity_grad, relu, relu_grad, leaky_relu,
    leaky_relu_grad, sigmoid, sigmoid_grad, tanh, tanh_grad, gelu, gelu_grad, gelu_tanh,
    gelu_tanh_grad, silu, silu_grad, softplus, softplus_grad, softmax, log_softmax,
    PRELU_INIT, prelu, prelu_grad, prelu_grad_slope,
)
from mlp_ref.network import (
    MLP, ForwardCache, Gradients, affine, dense, linear_from_torch, linear_to_torch,
)
from mlp_ref.initialization import (
    INITIALIZERS, get_initializer, he_normal, he_uniform, kaiming_gain, xavier_normal,
    xavier_uniform, zeros,
)
from mlp_ref.losses import (
    binary_cross_entropy_with_logits, binary_cross_entropy_with_logits_grad, cross_entropy,
    cross_entropy_grad, mse, mse_grad,
)
from mlp_ref.heads import OUTPUT_HEADS, OUTPUT_LOSSES, head_loss, head_loss_and_grads, head_loss_grad
from mlp_ref.training import (
    AdamState, History, MomentumState, adam_step, central_difference, fit, grad_check, momentum_step, sgd_step,
)
from mlp_ref.propagation import StackStatistics, layer_statistics, random_stack
from mlp_ref.counting import (
    LayerRow, LayerTable, MemoryEstimate, count_params, layer_table, memory_estimate,
)
from mlp_ref.approximation import (
    ReLUNetwork, count_linear_pieces, max_error, relu_interpolant, sawtooth, tent, tent_network,
)
from mlp_ref.transformer_counts import (
    CONFIGS, Breakdown, Component, MoECount, TransformerConfig, attention_params, breakdown, deepseek_v3,
    embedding_params, ffn_params, gated_ffn_params, gpt2_small, mla_params, moe_params, qwen3_0_6b, swiglu_hidden,
    transformer_base,
)
from mlp_ref.ffn import Routing, conv1d, ffn, gated_ffn, moe_ffn, route_top_k
from mlp_ref.perceptron import PerceptronRun, PerceptronStep, mistake_bound, perceptron_predict, train_perceptron
from mlp_ref.descent import LineFit, descend
from mlp_ref.multiply_adds import MultiplyAdds, count_multiply_adds
from mlp_ref.learnability import (
    XOR_STUDY, XOR_X, XOR_Y, XorRuns, XorStudy, train_xor, train_xor_readable, xor_by_hand, xor_outcomes,
)

__all__ = [
    "ShapeError",
    # activations
    "ACTIVATIONS", "get_activation", "identity", "identity_grad", "relu", "relu_grad", "leaky_relu",
    "leaky_relu_grad", "sigmoid", "sigmoid_grad", "tanh", "tanh_grad", "gelu", "gelu_grad", "gelu_tanh",
    "gelu_tanh_grad", "silu", "silu_grad", "softplus", "softplus_grad", "softmax", "log_softmax",
    "PRELU_INIT", "prelu", "prelu_grad", "prelu_grad_slope",
    # network
    "MLP", "ForwardCache", "Gradients", "affine", "dense", "linear_from_torch", "linear_to_torch",
    # initialization
    "INITIALIZERS", "get_initializer", "he_normal", "he_uniform", "kaiming_gain", "xavier_normal",
    "xavier_uniform", "zeros",
    # losses and output heads
    "binary_cross_entropy_with_logits", "binary_cross_entropy_with_logits_grad", "cross_entropy",
    "cross_entropy_grad", "mse", "mse_grad",
    "OUTPUT_HEADS", "OUTPUT_LOSSES", "head_loss", "head_loss_and_grads", "head_loss_grad",
    # training
    "History", "central_difference", "fit", "grad_check", "sgd_step", "MomentumState", "momentum_step",
    "AdamState", "adam_step",
    # signal propagation
    "StackStatistics", "layer_statistics", "random_stack",
    # counting
    "LayerRow", "LayerTable", "MemoryEstimate", "count_params", "layer_table", "memory_estimate",
    # approximation
    "ReLUNetwork", "count_linear_pieces", "max_error", "relu_interpolant", "sawtooth", "tent", "tent_network",
    # transformer counts and the FFN block
    "CONFIGS", "Breakdown", "Component", "MoECount", "TransformerConfig", "attention_params", "breakdown",
    "deepseek_v3", "embedding_params", "ffn_params",
    "gated_ffn_params", "gpt2_small", "mla_params", "moe_params", "qwen3_0_6b", "swiglu_hidden",
    "transformer_base",
    "Routing", "conv1d", "ffn", "gated_ffn", "moe_ffn", "route_top_k",
    # the perceptron
    "PerceptronRun", "PerceptronStep", "mistake_bound", "perceptron_predict", "train_perceptron",
    # learning the weights: gradient descent, the cost of backward, XOR learnability
    "LineFit", "descend", "MultiplyAdds", "count_multiply_adds",
    "XOR_STUDY", "XOR_X", "XOR_Y", "XorRuns", "XorStudy", "train_xor", "train_xor_readable", "xor_by_hand",
    "xor_outcomes",
]
