"""Parameter counts of the blocks inside a transformer, and of four published models.

Building blocks (each returns an ``int``; ``d`` is the model width):

* ``ffn_params(d, d_ff, bias)``: the classic feed-forward block ``d -> d_ff -> d``;
* ``gated_ffn_params(d, h, bias)``: SwiGLU, three ``d x h`` matrices;
  ``swiglu_hidden(d)`` gives the inner width ``h ~ 8d/3`` that matches ``8 d^2``;
* ``moe_params(...)``: a mixture of experts, total and active per token;
* ``attention_params(d, n_q, n_kv, head_dim, bias)``: q/k/v/o projections with grouped
  key-value heads;
* ``embedding_params(vocab, d, tied, context)``: token (and learned position) tables.

Configurations: each published model is one ``TransformerConfig`` (``CONFIGS``: its sizes,
its layout, its source and what it leaves out), and ``breakdown(config)`` returns a
``Breakdown`` (rows of component, count and share). ``transformer_base()``, ``gpt2_small()``,
``qwen3_0_6b()`` and ``deepseek_v3()`` are the breakdowns of the four. Lesson 6's parameter
counter recounts the same objects with changed sizes, in the reader's browser; its tables and
their Russian words are page code (:mod:`mlp_ref.course.counting_tables`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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
    """One line of a breakdown: a component, its parameter count and its share of the total.

    ``component`` names it (``Breakdown[...]`` looks a row up by that name).
    """

    component: str
    count: int
    share: float


@dataclass(frozen=True)
class Breakdown:
    """Where the parameters of a model live.

    Attributes
    ----------
    config : TransformerConfig
        The sizes counted.
    rows : tuple of Component
        The components; their counts sum to ``total``.
    active : int or None
        Parameters used per token (mixture-of-experts models), else None.
    """

    config: TransformerConfig
    rows: tuple[Component, ...]
    active: int | None

    @property
    def model(self) -> str:
        """The model's display name (``config.model``)."""
        return self.config.model

    @property
    def leaves_out(self) -> str:
        """What the estimate does not count (``config.leaves_out``)."""
        return self.config.leaves_out

    @property
    def total(self) -> int:
        return sum(row.count for row in self.rows)

    def __getitem__(self, component: str) -> Component:
        for row in self.rows:
            if row.component == component:
                return row
        raise KeyError(f"no component {component!r}; components are {[r.component for r in self.rows]}")


def mla_params(d: int = 7168, n_heads: int = 128, q_lora_rank: int = 1536, kv_lora_rank: int = 512,
               qk_nope_head_dim: int = 128, qk_rope_head_dim: int = 64, v_head_dim: int = 128) -> int:
    """Multi-head latent attention (DeepSeek-V2/V3) projections and their two RMSNorms.

    ``W_qa (d, q_lora_rank)``, RMSNorm ``(q_lora_rank,)``,
    ``W_qb (q_lora_rank, n_heads * (qk_nope + qk_rope))``,
    ``W_kva (d, kv_lora_rank + qk_rope)`` (the rope key is shared by all heads),
    RMSNorm ``(kv_lora_rank,)``, ``W_kvb (kv_lora_rank, n_heads * (qk_nope + v_head_dim))``,
    ``W_o (n_heads * v_head_dim, d)``; no biases. Defaults are DeepSeek-V3's.

    Parameters
    ----------
    d : int
        Model width.
    n_heads : int
        Attention heads.
    q_lora_rank, kv_lora_rank : int
        Widths of the compressed query and key-value latents.
    qk_nope_head_dim, qk_rope_head_dim : int
        Per-head query and key widths without and with rotary positions.
    v_head_dim : int
        Per-head value width.

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


# --- published configurations -------------------------------------------------------


@dataclass(frozen=True)
class TransformerConfig:
    """The sizes of a published transformer, and the layout (``family``) that counts them.

    One object per model (:data:`CONFIGS`) feeds both the page's tables and the parameter
    counter on lesson 6, which lets a reader change the fields named in ``editable`` and
    recounts with the same formulas (``breakdown(dataclasses.replace(config, ...))``).

    Attributes
    ----------
    family : {"encoder-decoder", "gpt2", "qwen3", "deepseek-v3"}
        Which arrays a layer holds (see :func:`breakdown`).
    model : str
        Display name.
    d_model, d_ff, n_heads, n_kv_heads, layers, vocab : int
        Width, FFN inner width (the dense FFN's, for DeepSeek-V3), query and key-value
        heads (attention heads of MLA), layers (per stack, for the encoder-decoder), vocabulary.
    head_dim : int or None
        Head size; None means ``d_model // n_heads``.
    context : int or None
        Learned positions (GPT-2), None for positions without parameters.
    dense_layers, n_experts, n_shared, top_k, d_expert : int
        Mixture of experts: the first ``dense_layers`` layers are dense, the others hold
        ``n_experts`` routed and ``n_shared`` shared experts of inner width ``d_expert``,
        ``top_k`` routed ones active per token (0 for dense models).
    editable : tuple of str
        The fields the parameter counter lets a reader change.
    leaves_out : str
        What the estimate does not count.
    """

    family: str
    model: str
    d_model: int
    d_ff: int
    n_heads: int
    n_kv_heads: int
    layers: int
    vocab: int
    leaves_out: str
    head_dim: int | None = None
    context: int | None = None
    dense_layers: int = 0
    n_experts: int = 0
    n_shared: int = 0
    top_k: int = 0
    d_expert: int = 0
    editable: tuple[str, ...] = ("d_model", "d_ff", "n_heads", "n_kv_heads", "layers", "vocab")


#: Row labels of each family's breakdown, with the configuration's fields in braces
#: (``moe_layers`` is ``layers - dense_layers``). The counter fills in the same templates.
ROW_LABELS = {
    "encoder-decoder": ("token embedding (shared, tied with output)", "encoder self-attention", "encoder FFN",
                        "decoder self-attention", "decoder cross-attention", "decoder FFN", "layer norms"),
    "gpt2": ("token embedding (tied with output)", "position embedding",
             "attention (q, k, v, o with biases)", "FFN {d_model} -> {d_ff} -> {d_model} with biases",
             "layer norms (scale and shift)"),
    # one hd-wide scale for the queries and one for the keys in each layer, applied to every
    # head (Qwen3's q_norm and k_norm): 2 hd per layer, not (n_q + n_kv) hd
    "qwen3": ("token embedding (tied with output)", "attention (q, k, v, o; GQA {n_heads}/{n_kv_heads})",
              "q/k RMSNorm (a {head_dim}-wide scale for q and one for k per layer, shared by all heads)",
              "FFN (SwiGLU {d_model} -> {d_ff})", "RMSNorms (2 per layer + final)"),
    "deepseek-v3": ("token embedding", "output head (untied)", "attention (MLA), {layers} layers",
                    "dense FFN, {dense_layers} layers", "routed experts, {moe_layers} layers x {n_experts}",
                    "shared expert, {moe_layers} layers x {n_shared}", "routers, {moe_layers} layers", "RMSNorms"),
}


def _head_dim(c: TransformerConfig) -> int:
    if c.head_dim is not None:
        return c.head_dim
    if c.d_model % c.n_heads:
        raise ValueError(f"n_heads: expected a divisor of d_model = {c.d_model}, received {c.n_heads}")
    return c.d_model // c.n_heads


def _encoder_decoder(c: TransformerConfig) -> tuple[list[int], None]:
    d, L = c.d_model, c.layers
    attn = attention_params(d, c.n_heads, c.n_kv_heads, _head_dim(c), bias=True)
    ffn = ffn_params(d, c.d_ff, bias=True)
    norm = 2 * d  # LayerNorm: a scale and a shift
    return [embedding_params(c.vocab, d, tied=True), L * attn, L * ffn, L * attn, L * attn, L * ffn,
            L * 2 * norm + L * 3 * norm], None


def _gpt2(c: TransformerConfig) -> tuple[list[int], None]:
    d, L = c.d_model, c.layers
    return [embedding_params(c.vocab, d, tied=True), c.context * d,
            L * attention_params(d, c.n_heads, c.n_kv_heads, _head_dim(c), bias=True),
            L * ffn_params(d, c.d_ff, bias=True), (2 * L + 1) * 2 * d], None


def _qwen3(c: TransformerConfig) -> tuple[list[int], None]:
    d, L, hd = c.d_model, c.layers, _head_dim(c)
    return [embedding_params(c.vocab, d, tied=True), L * attention_params(d, c.n_heads, c.n_kv_heads, hd),
            L * 2 * hd, L * gated_ffn_params(d, c.d_ff), (2 * L + 1) * d], None


def _deepseek_v3(c: TransformerConfig) -> tuple[list[int], int]:
    d, L, dense = c.d_model, c.layers, c.dense_layers
    moe_layers = L - dense
    if moe_layers < 0:
        raise ValueError(f"layers: expected at least the {dense} dense layers, received {L}")
    attn = mla_params(d, c.n_heads)
    dense_ffn = gated_ffn_params(d, c.d_ff)
    moe = moe_params(d, c.d_expert, n_routed=c.n_experts, top_k=c.top_k, n_shared=c.n_shared, router_bias=True)
    token_embedding = head = c.vocab * d
    norms = (2 * L + 1) * d
    counts = [token_embedding, head, L * attn, dense * dense_ffn, moe_layers * c.n_experts * moe.per_expert,
              moe_layers * c.n_shared * moe.per_expert, moe_layers * moe.router, norms]
    active = token_embedding + head + L * attn + dense * dense_ffn + moe_layers * moe.active + norms
    return counts, active


_FAMILIES = {"encoder-decoder": _encoder_decoder, "gpt2": _gpt2, "qwen3": _qwen3, "deepseek-v3": _deepseek_v3}


def row_labels(config: TransformerConfig, labels: dict[str, tuple[str, ...]] = ROW_LABELS) -> list[str]:
    """The labels of ``config``'s breakdown rows: :data:`ROW_LABELS` (or ``labels``, templates
    for the same rows in another language) filled with its fields."""
    fields = {name: getattr(config, name) for name in config.__dataclass_fields__}
    fields["head_dim"] = _head_dim(config)
    fields["moe_layers"] = config.layers - config.dense_layers
    return [template.format(**fields) for template in labels[config.family]]


def breakdown(config: TransformerConfig) -> Breakdown:
    """Where the parameters of ``config`` live, one row per component of its family.

    Parameters
    ----------
    config : TransformerConfig
        One of :data:`CONFIGS`, or one with changed sizes (``dataclasses.replace``).

    Returns
    -------
    Breakdown
        Rows labelled by :func:`row_labels`; ``active`` per token for a mixture of experts.

    Raises
    ------
    ValueError
        For a size below 1, heads that do not divide the width (without ``head_dim``),
        key-value heads that do not divide the heads, ``top_k`` above the experts.
    """
    for name in config.editable:
        check_int(name, getattr(config, name), 1)
    counts, active = _FAMILIES[config.family](config)
    total = sum(counts)
    rows = tuple(Component(name, count, count / total) for name, count in zip(row_labels(config), counts, strict=True))
    return Breakdown(config, rows, active)


#: The base model of "Attention Is All You Need" (Vaswani et al., 2017): d = 512, d_ff = 2048,
#: 8 heads, 6 encoder and 6 decoder layers, post-norm, a shared source/target vocabulary of
#: 37,000 BPE tokens whose embedding is also the pre-softmax matrix (three-way tying),
#: sinusoidal positions (no parameters). Counted: attention projections with biases (as in
#: PyTorch's ``nn.Transformer``; the paper does not say), FFNs with biases (the paper's
#: ``max(0, xW1 + b1)W2 + b2``), two LayerNorm vectors of size d per norm (2 norms per encoder
#: layer, 3 per decoder layer). The total (about 63.1M) is below the "65M" of the paper's
#: Table 3; we do not know the exact configuration behind that figure.
TRANSFORMER_BASE = TransformerConfig(
    "encoder-decoder", "Transformer base (2017)", d_model=512, d_ff=2048, n_heads=8, n_kv_heads=8, layers=6,
    vocab=37_000, leaves_out="a final encoder/decoder norm; exact vocabulary size (37,000 is approximate)")

#: GPT-2 small (124M; Radford et al., 2019, and the released checkpoint): d = 768, 12 layers,
#: 12 heads, d_ff = 3072, biases everywhere, vocabulary 50,257, 1,024 learned positions, two
#: LayerNorms per layer plus a final one, output head tied to the token embedding. The total,
#: 124,439,808, is the parameter count of the released checkpoint.
GPT2_SMALL = TransformerConfig(
    "gpt2", "GPT-2 small", d_model=768, d_ff=3072, n_heads=12, n_kv_heads=12, layers=12, vocab=50_257,
    context=1024, leaves_out="nothing with parameters")

#: Qwen3-0.6B (Qwen team, 2025; the model card and ``config.json``): d = 1024, 28 layers,
#: SwiGLU FFN with inner width 3072 and no biases, 16 query heads and 8 key-value heads of
#: size 128 (so ``n_q * hd = 2048 != d``), no attention biases, RMSNorm before attention and
#: before the FFN, RMSNorm of size 128 on each query and key head (shared across heads), a
#: final RMSNorm, vocabulary 151,936, output head tied to the embedding, RoPE positions. The
#: model card gives "0.6B" and "0.44B" without embeddings; this count is 596,049,920 and
#: 440,467,456.
QWEN3_0_6B = TransformerConfig(
    "qwen3", "Qwen3-0.6B", d_model=1024, d_ff=3072, n_heads=16, n_kv_heads=8, layers=28, vocab=151_936,
    head_dim=128, leaves_out="nothing with parameters")

#: DeepSeek-V3 (DeepSeek-AI, 2024; the technical report and ``config.json``): d = 7168, 61
#: layers, vocabulary 129,280, untied output head, MLA in every layer (:func:`mla_params`, 128
#: heads). The first 3 layers have a dense SwiGLU FFN of inner width 18,432; the other 58 a
#: mixture of experts: 256 routed + 1 shared SwiGLU expert of inner width 2,048, 8 routed
#: active per token, a router ``(d, 256)`` with a per-expert bias. Two RMSNorms per layer and
#: a final one. Total 671,026,419,200 and about 37.6B active per token (the report: 671B and
#: 37B); ``active`` counts the embedding row lookup and the output head.
DEEPSEEK_V3 = TransformerConfig(
    "deepseek-v3", "DeepSeek-V3", d_model=7168, d_ff=18_432, n_heads=128, n_kv_heads=128, layers=61,
    vocab=129_280, dense_layers=3, n_experts=256, n_shared=1, top_k=8, d_expert=2048,
    editable=("d_model", "d_ff", "n_heads", "layers", "vocab", "n_experts", "top_k"),
    leaves_out="the MTP module (about 14B) and FP8 scaling factors")

#: The configurations of the page's tables, in the page's order.
CONFIGS = (GPT2_SMALL, TRANSFORMER_BASE, QWEN3_0_6B, DEEPSEEK_V3)


def transformer_base() -> Breakdown:
    """The base model of "Attention Is All You Need" (:data:`TRANSFORMER_BASE`).

    Returns
    -------
    Breakdown
        Where the parameters live, component by component.
    """
    return breakdown(TRANSFORMER_BASE)


def gpt2_small() -> Breakdown:
    """GPT-2 small (:data:`GPT2_SMALL`); total 124,439,808, the released checkpoint's count.

    Returns
    -------
    Breakdown
        Where the parameters live, component by component.
    """
    return breakdown(GPT2_SMALL)


def qwen3_0_6b() -> Breakdown:
    """Qwen3-0.6B (:data:`QWEN3_0_6B`); 596,049,920 in all, 440,467,456 without the embedding.

    Returns
    -------
    Breakdown
        Where the parameters live, component by component.
    """
    return breakdown(QWEN3_0_6B)


def deepseek_v3() -> Breakdown:
    """DeepSeek-V3 (:data:`DEEPSEEK_V3`): 671,026,419,200 in all, about 37.6B active per token.

    Leaves out the multi-token-prediction (MTP) module of the released checkpoint (about 14B
    more, 685B in all), and the FP8 scaling factors stored with the weights.

    Returns
    -------
    Breakdown
        Where the parameters live, component by component.
    """
    return breakdown(DEEPSEEK_V3)
