"""Parameter counts of the blocks inside a transformer, and of four published models.

Building blocks (each returns an ``int``; ``d`` is the model width):

* ``ffn_params(d, d_ff, bias)``: the classic feed-forward block ``d -> d_ff -> d``;
* ``gated_ffn_params(d, h, bias)``: SwiGLU, three ``d x h`` matrices;
  ``swiglu_hidden(d)`` gives the inner width ``h ~ 8d/3`` that matches ``8 d^2``;
* ``moe_params(...)``: a mixture of experts, total and active per token;
* ``attention_params(d, n_q, n_kv, head_dim, bias)``: q/k/v/o projections with grouped
  key-value heads;
* ``embedding_params(vocab, d, tied, context)``: token (and learned position) tables.

Configurations (each returns a ``Breakdown``: rows of component, count and share):
``transformer_base()``, ``gpt2_small()``, ``qwen3_0_6b()``, ``deepseek_v3()``. Each
docstring states its source and what it leaves out.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mlp_ref.course.tables import format_count, format_number, markdown_table
from mlp_ref.validation import check_int


# --- building blocks --------------------------------------------------------------


def ffn_params(d: int, d_ff: int | None = None, *, k: int = 4, bias: bool = True) -> int:
    """Classic position-wise FFN ``d -> d_ff -> d``: ``W1 (d, d_ff)``, ``W2 (d_ff, d)``.

    Parameters
    ----------
    d : int
        Model width.
    d_ff : int, optional
        Inner width; defaults to ``k * d``.
    k : int
        Expansion factor used when ``d_ff`` is not given (4 in most models).
    bias : bool
        Whether ``b1 (d_ff,)`` and ``b2 (d,)`` are counted.

    Returns
    -------
    int
        ``2 * d * d_ff`` (+ ``d_ff + d`` with biases); ``8 d^2`` for ``k = 4`` without biases.
    """
    d = check_int("d", d, 1)
    d_ff = check_int("k", k, 1) * d if d_ff is None else check_int("d_ff", d_ff, 1)
    return 2 * d * d_ff + ((d_ff + d) if bias else 0)


def gated_ffn_params(d: int, h: int, *, bias: bool = False) -> int:
    """Gated FFN (SwiGLU): ``(silu(x W_gate) * (x W_up)) W_down``.

    Parameters
    ----------
    d : int
        Model width.
    h : int
        Inner width; ``W_gate`` and ``W_up`` are ``(d, h)``, ``W_down`` is ``(h, d)``.
    bias : bool
        Whether biases ``(h,)``, ``(h,)`` and ``(d,)`` are counted (LLaMA and Qwen use none).

    Returns
    -------
    int
        ``3 * d * h`` (+ ``2 h + d`` with biases).
    """
    d, h = check_int("d", d, 1), check_int("h", h, 1)
    return 3 * d * h + ((2 * h + d) if bias else 0)


def swiglu_hidden(d: int, multiple_of: int = 256) -> int:
    """Inner width of a SwiGLU FFN with as many weights as a ``d -> 4d -> d`` FFN.

    ``3 d h = 8 d^2`` gives ``h = 8d/3``; like LLaMA's reference code, ``h`` is rounded
    *up* to a multiple of ``multiple_of`` for efficient matrix shapes.

    Parameters
    ----------
    d : int
        Model width.
    multiple_of : int
        Rounding granularity (1 for no rounding beyond the integer ceiling).

    Returns
    -------
    int
        ``multiple_of * ceil(8 d / (3 multiple_of))``; 11008 for ``d = 4096``.
    """
    d, multiple_of = check_int("d", d, 1), check_int("multiple_of", multiple_of, 1)
    return multiple_of * math.ceil(8 * d / (3 * multiple_of))


@dataclass(frozen=True)
class MoECount:
    """Parameters of one mixture-of-experts FFN: all of them, and those one token uses."""

    total: int
    active: int
    per_expert: int
    router: int


def moe_params(d: int, h_expert: int, n_routed: int, top_k: int, *, n_shared: int = 0,
               gated: bool = True, bias: bool = False, router_bias: bool = False) -> MoECount:
    """Mixture-of-experts FFN: ``n_routed`` routed experts, ``n_shared`` always-on ones.

    Each expert is a gated FFN ``d -> h_expert -> d`` (or a classic two-matrix FFN if
    ``gated=False``), without biases unless ``bias``. A router (a ``(d, n_routed)`` matrix, plus a
    ``(n_routed,)`` bias if ``router_bias``) scores the routed experts; each token runs
    its ``top_k`` best routed experts and every shared expert.

    Parameters
    ----------
    d, h_expert : int
        Model width and expert inner width.
    n_routed, top_k : int
        Number of routed experts and routed experts active per token
        (``1 <= top_k <= n_routed``).
    n_shared : int
        Number of shared experts.
    gated : bool
        SwiGLU experts (3 matrices) or classic ones (2 matrices).
    bias : bool
        Count each expert's biases too, as :func:`ffn_params` and :func:`gated_ffn_params`
        do (``b1 (h_expert,)`` and ``b2 (d,)`` for a classic expert). Large MoE models use
        none; a toy whose experts carry biases must say so, or its count is not its own.
    router_bias : bool
        Count a per-expert router bias (DeepSeek-V3 keeps one for load balancing).

    Returns
    -------
    MoECount
        ``total = (n_routed + n_shared) * per_expert + router`` and
        ``active = (top_k + n_shared) * per_expert + router`` (the router runs on
        every token).
    """
    d, h_expert = check_int("d", d, 1), check_int("h_expert", h_expert, 1)
    n_routed, top_k = check_int("n_routed", n_routed, 1), check_int("top_k", top_k, 1)
    n_shared = check_int("n_shared", n_shared, 0)
    if top_k > n_routed:
        raise ValueError(f"top_k: expected at most n_routed = {n_routed}, received {top_k}")
    per_expert = gated_ffn_params(d, h_expert, bias=bias) if gated else ffn_params(d, h_expert, bias=bias)
    router = d * n_routed + (n_routed if router_bias else 0)
    return MoECount(total=(n_routed + n_shared) * per_expert + router,
                    active=(top_k + n_shared) * per_expert + router,
                    per_expert=per_expert, router=router)


def attention_params(d: int, n_q: int, n_kv: int | None = None, head_dim: int | None = None,
                     *, bias: bool = False) -> int:
    """Projections of multi-head attention with grouped key-value heads.

    ``W_q (d, n_q*hd)``, ``W_k (d, n_kv*hd)``, ``W_v (d, n_kv*hd)``, ``W_o (n_q*hd, d)``.

    Parameters
    ----------
    d : int
        Model width.
    n_q : int
        Number of query heads.
    n_kv : int, optional
        Number of key-value heads (defaults to ``n_q``: ordinary multi-head attention;
        1 is multi-query attention). Must divide ``n_q``.
    head_dim : int, optional
        Head size ``hd`` (defaults to ``d // n_q``, which must then divide exactly).
    bias : bool
        Count biases ``(n_q*hd,)``, ``(n_kv*hd,)``, ``(n_kv*hd,)`` and ``(d,)``.

    Returns
    -------
    int
        ``2 d n_q hd + 2 d n_kv hd`` (+ biases); ``4 d^2`` for plain multi-head attention.
    """
    d, n_q = check_int("d", d, 1), check_int("n_q", n_q, 1)
    n_kv = n_q if n_kv is None else check_int("n_kv", n_kv, 1)
    if n_q % n_kv:
        raise ValueError(f"n_kv: expected a divisor of n_q = {n_q}, received {n_kv}")
    if head_dim is None:
        if d % n_q:
            raise ValueError(f"head_dim: d = {d} is not divisible by n_q = {n_q}; pass head_dim")
        head_dim = d // n_q
    hd = check_int("head_dim", head_dim, 1)
    weights = 2 * d * n_q * hd + 2 * d * n_kv * hd
    return weights + ((n_q * hd + 2 * n_kv * hd + d) if bias else 0)


def embedding_params(vocab: int, d: int, *, tied: bool = True, context: int | None = None) -> int:
    """Token embedding ``(vocab, d)``, an untied output head, learned positions.

    Parameters
    ----------
    vocab, d : int
        Vocabulary size and model width.
    tied : bool
        Whether the output head reuses the token embedding (else another ``vocab * d``).
    context : int, optional
        Number of learned positions (``context * d``); None for position schemes without
        parameters (sinusoidal, RoPE).

    Returns
    -------
    int
    """
    vocab, d = check_int("vocab", vocab, 1), check_int("d", d, 1)
    positions = 0 if context is None else check_int("context", context, 1) * d
    return vocab * d * (1 if tied else 2) + positions


# --- breakdowns ---------------------------------------------------------------------


@dataclass(frozen=True)
class Component:
    """One line of a breakdown: a component, its parameter count and its share of the total."""

    component: str
    count: int
    share: float


@dataclass(frozen=True)
class Breakdown:
    """Where the parameters of a model live.

    Attributes
    ----------
    model : str
    rows : tuple of Component
        The components; their counts sum to ``total``.
    active : int or None
        Parameters used per token (mixture-of-experts models), else None.
    leaves_out : str
        What the estimate does not count.
    """

    model: str
    rows: tuple[Component, ...]
    active: int | None
    leaves_out: str

    @property
    def total(self) -> int:
        return sum(row.count for row in self.rows)

    def __getitem__(self, component: str) -> Component:
        for row in self.rows:
            if row.component == component:
                return row
        raise KeyError(f"no component {component!r}; components are {[r.component for r in self.rows]}")

    def to_markdown(self, precision: int = 1) -> str:
        """Markdown table: component | parameters | share (%), plus a total row."""
        body = [[r.component, format_count(r.count), format_number(100 * r.share, precision)]
                for r in self.rows]
        body.append(["total", format_count(self.total), format_number(100.0, precision)])
        if self.active is not None:
            body.append(["active per token", format_count(self.active),
                         format_number(100 * self.active / self.total, precision)])
        return markdown_table(["component", "parameters", "share (%)"], body, align="lrr")


def _breakdown(model: str, parts: list[tuple[str, int]], leaves_out: str,
               active: int | None = None) -> Breakdown:
    total = sum(count for _, count in parts)
    rows = tuple(Component(name, count, count / total) for name, count in parts)
    return Breakdown(model, rows, active, leaves_out)


def transformer_base() -> Breakdown:
    """The base model of "Attention Is All You Need" (Vaswani et al., 2017).

    d = 512, d_ff = 2048, 8 heads, 6 encoder and 6 decoder layers, post-norm, a shared
    source/target vocabulary of 37,000 BPE tokens whose embedding is also the
    pre-softmax matrix (three-way tying), sinusoidal positions (no parameters).

    Counted: attention projections with biases (as in PyTorch's ``nn.Transformer``; the
    paper does not say), FFNs with biases (the paper's ``max(0, xW1 + b1)W2 + b2``), two
    LayerNorm vectors of size d per norm (2 norms per encoder layer, 3 per decoder layer).

    Leaves out: nothing with parameters that we know of, but the vocabulary size is the
    paper's approximate "about 37000", and no final encoder/decoder norm is counted. The
    total (about 63.1M) is below the "65M" of the paper's Table 3; we do not know the
    exact configuration behind that figure.
    """
    d, d_ff, layers = 512, 2048, 6
    attn = attention_params(d, 8, bias=True)
    ffn = ffn_params(d, d_ff, bias=True)
    norm = 2 * d
    return _breakdown("Transformer base (2017)", [
        ("token embedding (shared, tied with output)", embedding_params(37_000, d, tied=True)),
        ("encoder self-attention", layers * attn),
        ("encoder FFN", layers * ffn),
        ("decoder self-attention", layers * attn),
        ("decoder cross-attention", layers * attn),
        ("decoder FFN", layers * ffn),
        ("layer norms", layers * 2 * norm + layers * 3 * norm),
    ], leaves_out="a final encoder/decoder norm; exact vocabulary size (37,000 is approximate)")


def gpt2_small() -> Breakdown:
    """GPT-2 small (124M; Radford et al., 2019, and the released checkpoint).

    d = 768, 12 layers, 12 heads, d_ff = 3072, biases everywhere, vocabulary 50,257,
    1,024 learned positions, two LayerNorms per layer plus a final one, output head tied
    to the token embedding. Total 124,439,808, the parameter count of the released
    checkpoint.

    Leaves out: nothing; the attention masks stored as buffers in some implementations
    are not parameters.
    """
    d, layers = 768, 12
    return _breakdown("GPT-2 small", [
        ("token embedding (tied with output)", embedding_params(50_257, d, tied=True)),
        ("position embedding", 1024 * d),
        ("attention (q, k, v, o with biases)", layers * attention_params(d, 12, bias=True)),
        ("FFN 768 -> 3072 -> 768 with biases", layers * ffn_params(d, 3072, bias=True)),
        ("layer norms (scale and shift)", (2 * layers + 1) * 2 * d),
    ], leaves_out="nothing with parameters")


def qwen3_0_6b() -> Breakdown:
    """Qwen3-0.6B (Qwen team, 2025; the model card and ``config.json``).

    d = 1024, 28 layers, SwiGLU FFN with inner width 3072 and no biases, 16 query heads
    and 8 key-value heads of size 128 (so ``n_q * hd = 2048 != d``), no attention biases,
    RMSNorm (one scale vector) before attention and before the FFN, RMSNorm of size 128
    on each query and key head (shared across heads), a final RMSNorm, vocabulary
    151,936, output head tied to the embedding, RoPE positions (no parameters).

    The model card gives "0.6B" parameters and "0.44B" without embeddings; this count is
    596,049,920 in all and 440,467,456 without the embedding table.

    Leaves out: nothing with parameters that we know of.
    """
    d, layers, hd = 1024, 28, 128
    return _breakdown("Qwen3-0.6B", [
        ("token embedding (tied with output)", embedding_params(151_936, d, tied=True)),
        ("attention (q, k, v, o; GQA 16/8)", layers * attention_params(d, 16, 8, hd)),
        # one hd-wide scale for the queries and one for the keys in each layer, applied to every
        # head (Qwen3's q_norm and k_norm): 2 hd per layer, not (16 + 8) hd
        (f"q/k RMSNorm (a {hd}-wide scale for q and one for k per layer, shared by all heads)", layers * 2 * hd),
        ("FFN (SwiGLU 1024 -> 3072)", layers * gated_ffn_params(d, 3072)),
        ("RMSNorms (2 per layer + final)", (2 * layers + 1) * d),
    ], leaves_out="nothing with parameters")


def mla_params(d: int = 7168, n_heads: int = 128, q_lora_rank: int = 1536, kv_lora_rank: int = 512,
               qk_nope_head_dim: int = 128, qk_rope_head_dim: int = 64, v_head_dim: int = 128) -> int:
    """Multi-head latent attention (DeepSeek-V2/V3) projections and their two RMSNorms.

    ``W_qa (d, q_lora_rank)``, RMSNorm ``(q_lora_rank,)``,
    ``W_qb (q_lora_rank, n_heads * (qk_nope + qk_rope))``,
    ``W_kva (d, kv_lora_rank + qk_rope)`` (the rope key is shared by all heads),
    RMSNorm ``(kv_lora_rank,)``, ``W_kvb (kv_lora_rank, n_heads * (qk_nope + v_head_dim))``,
    ``W_o (n_heads * v_head_dim, d)``; no biases. Defaults are DeepSeek-V3's.

    Returns
    -------
    int
        187,107,328 for the defaults.
    """
    qk = qk_nope_head_dim + qk_rope_head_dim
    return (d * q_lora_rank + q_lora_rank + q_lora_rank * n_heads * qk
            + d * (kv_lora_rank + qk_rope_head_dim) + kv_lora_rank
            + kv_lora_rank * n_heads * (qk_nope_head_dim + v_head_dim)
            + n_heads * v_head_dim * d)


def deepseek_v3() -> Breakdown:
    """DeepSeek-V3 (DeepSeek-AI, 2024; the technical report and ``config.json``).

    d = 7168, 61 layers, vocabulary 129,280, untied output head. Attention is MLA in
    every layer (``mla_params``: 128 heads, q_lora_rank 1536, kv_lora_rank 512, head
    dims 128 + 64 rope for q/k and 128 for v). The first 3 layers have a dense SwiGLU FFN
    of inner width 18,432; the other 58 have a mixture of experts: 256 routed + 1 shared
    SwiGLU expert of inner width 2,048, 8 routed experts active per token, a router
    ``(d, 256)`` with a per-expert bias. Two RMSNorms per layer and a final one.

    Total 671,026,419,200 and about 37.6B active per token, against the report's 671B
    total and 37B activated (for the main model). ``active`` counts the embedding row
    lookup and the output head; without the input embedding it is about 36.6B.

    Leaves out: the multi-token-prediction (MTP) module of the released checkpoint
    (about 14B more, 685B in all), and the FP8 scaling factors stored with the weights.
    """
    d, vocab, dense_layers, moe_layers = 7168, 129_280, 3, 58
    attn = mla_params()
    dense_ffn = gated_ffn_params(d, 18_432)
    moe = moe_params(d, 2048, n_routed=256, top_k=8, n_shared=1, router_bias=True)
    token_embedding, head = vocab * d, vocab * d
    norms = (2 * (dense_layers + moe_layers) + 1) * d
    parts = [
        ("token embedding", token_embedding),
        ("output head (untied)", head),
        ("attention (MLA), 61 layers", (dense_layers + moe_layers) * attn),
        ("dense FFN, 3 layers", dense_layers * dense_ffn),
        ("routed experts, 58 layers x 256", moe_layers * 256 * moe.per_expert),
        ("shared expert, 58 layers x 1", moe_layers * moe.per_expert),
        ("routers, 58 layers", moe_layers * moe.router),
        ("RMSNorms", norms),
    ]
    active = (token_embedding + head + (dense_layers + moe_layers) * attn + dense_layers * dense_ffn
              + moe_layers * moe.active + norms)
    return _breakdown("DeepSeek-V3", parts, active=active,
                      leaves_out="the MTP module (about 14B) and FP8 scaling factors")
