"""Tests of mlp_ref.transformer_counts against hand derivations and published counts."""

import pytest

from mlp_ref.transformer_counts import (
    attention_params, deepseek_v3, embedding_params, ffn_params, gated_ffn_params,
    gpt2_small, mla_params, moe_params, qwen3_0_6b, swiglu_hidden, transformer_base,
)


@pytest.mark.parametrize("d", [64, 512, 768, 4096])
def test_ffn_has_twice_the_weights_of_attention(d):
    heads = 8
    ffn = ffn_params(d, bias=False)
    attn = attention_params(d, heads)
    assert ffn == 8 * d * d
    assert attn == 4 * d * d
    assert ffn / (ffn + attn) == pytest.approx(2 / 3, abs=1e-15)


def test_ffn_with_biases_by_hand():
    # GPT-2 small MLP: c_fc 768*3072 + 3072, c_proj 3072*768 + 768
    assert ffn_params(768, 3072, bias=True) == 768 * 3072 + 3072 + 3072 * 768 + 768 == 4_722_432
    assert ffn_params(768, k=4, bias=True) == ffn_params(768, 3072, bias=True)


def test_gated_ffn_and_swiglu_width():
    assert gated_ffn_params(1024, 3072) == 3 * 1024 * 3072
    assert gated_ffn_params(4, 6, bias=True) == 3 * 24 + 6 + 6 + 4
    # LLaMA-7B: d = 4096 -> h = 11008 (8*4096/3 = 10922.67, rounded up to a multiple of 256)
    assert swiglu_hidden(4096) == 11008
    assert swiglu_hidden(768, multiple_of=1) == 2048  # 8 * 768 / 3 is exactly 2048
    d = 3072
    h = swiglu_hidden(d, multiple_of=1)
    assert abs(gated_ffn_params(d, h) - ffn_params(d, bias=False)) <= 3 * d  # within one unit of h


def test_attention_grouped_kv_by_hand():
    # Qwen3-0.6B: q 1024*2048, k and v 1024*1024 each, o 2048*1024
    assert attention_params(1024, 16, 8, 128) == 1024 * 2048 * 2 + 1024 * 1024 * 2
    # multi-query attention with biases: d = 8, 4 heads of 2, 1 kv head
    assert attention_params(8, 4, 1, bias=True) == 8 * 8 + 8 * 2 + 8 * 2 + 8 * 8 + (8 + 2 + 2 + 8)
    with pytest.raises(ValueError, match="n_kv: expected a divisor of n_q = 16"):
        attention_params(1024, 16, 5, 128)
    with pytest.raises(ValueError, match="head_dim"):
        attention_params(100, 3)


def test_embeddings():
    assert embedding_params(10, 4) == 40
    assert embedding_params(10, 4, tied=False) == 80
    assert embedding_params(10, 4, context=6) == 64


def test_moe_total_and_active_by_hand():
    # d = 4, expert inner 2 (gated: 3*4*2 = 24 each), 8 routed + 1 shared, top 2, router 4*8
    moe = moe_params(4, 2, n_routed=8, top_k=2, n_shared=1)
    assert moe.per_expert == 24
    assert moe.router == 32
    assert moe.total == 9 * 24 + 32
    assert moe.active == 3 * 24 + 32
    assert moe_params(4, 2, n_routed=8, top_k=2, gated=False).per_expert == 16
    with pytest.raises(ValueError, match="top_k: expected at most n_routed = 8"):
        moe_params(4, 2, n_routed=8, top_k=9)


def test_moe_count_with_biases_is_the_count_of_the_arrays_moe_ffn_takes():
    """Lesson 9's toy: experts (W1, b1, W2, b2) as mlp_ref.moe_ffn takes them, and a router."""
    import numpy as np

    from mlp_ref import moe_ffn

    rng = np.random.default_rng(0)
    d, h, E, k = 4, 8, 4, 2
    experts = [(rng.normal(size=(d, h)), rng.normal(size=h), rng.normal(size=(h, d)), rng.normal(size=d))
               for _ in range(E)]
    W_router = rng.normal(size=(d, E))
    moe_ffn(rng.normal(size=(1, 3, d)), W_router, experts, top_k=k)  # the arrays are what it takes
    counts = moe_params(d, h, n_routed=E, top_k=k, gated=False, bias=True)
    assert counts.total == sum(a.size for params in experts for a in params) + W_router.size
    assert counts.active == k * sum(a.size for a in experts[0]) + W_router.size
    gated = [(rng.normal(size=(d, h)), rng.normal(size=(d, h)), rng.normal(size=(h, d)))]  # no biases
    assert moe_params(d, h, n_routed=1, top_k=1).per_expert == sum(a.size for a in gated[0])


def test_qwen3_qk_norm_is_one_scale_for_queries_and_one_for_keys_per_layer():
    """Qwen3's q_norm and k_norm have weight shape (head_dim,) each, applied to every head:
    2 * 128 per layer, not one per head (16 + 8 heads), and the row's label says so."""
    (label, count), = [(r.component, r.count) for r in qwen3_0_6b().rows if r.component.startswith("q/k RMSNorm")]
    assert count == 28 * 2 * 128 != 28 * (16 + 8) * 128
    assert "shared by all heads" in label and "per head" not in label


def test_gpt2_small_matches_published_count():
    # The released GPT-2 small checkpoint has 124,439,808 parameters.
    b = gpt2_small()
    assert b.total == 124_439_808
    # Per layer by hand: 2 LN (4 * 768) + c_attn 768*2304 + 2304 + c_proj 768*768 + 768 + MLP 4,722,432
    per_layer = 4 * 768 + (768 * 2304 + 2304) + (768 * 768 + 768) + 4_722_432
    assert per_layer == 7_087_872
    assert 50_257 * 768 + 1024 * 768 + 12 * per_layer + 2 * 768 == 124_439_808


def test_qwen3_0_6b_against_model_card():
    b = qwen3_0_6b()
    # Model card: 0.6B total, 0.44B non-embedding.
    assert round(b.total / 1e9, 1) == 0.6
    non_embedding = b.total - b["token embedding (tied with output)"].count
    assert round(non_embedding / 1e9, 2) == 0.44
    # Per layer by hand: attention 6,291,456 + q/k norms 256 + SwiGLU 9,437,184 + 2 norms 2,048
    assert b.total == 151_936 * 1024 + 28 * (6_291_456 + 256 + 9_437_184 + 2_048) + 1024


def test_deepseek_v3_against_report():
    b = deepseek_v3()
    # Technical report: 671B total, 37B activated per token (main model, without MTP).
    assert round(b.total / 1e9) == 671
    assert round(b.active / 1e9) in (37, 38)
    assert 36e9 < b.active - b["token embedding"].count < 37e9
    # MLA by hand: q_a 7168*1536, q_b 1536*128*192, kv_a 7168*576, kv_b 512*128*256, o 16384*7168, norms 1536 + 512
    assert mla_params() == (7168 * 1536 + 1536 * 24576 + 7168 * 576 + 512 * 32768 + 16384 * 7168 + 1536 + 512)
    assert b["routed experts, 58 layers x 256"].count == 58 * 256 * 3 * 7168 * 2048


def test_transformer_base_by_hand():
    b = transformer_base()
    attn = 4 * (512 * 512 + 512)
    ffn = 2 * 512 * 2048 + 2048 + 512
    enc = attn + ffn + 2 * 1024
    dec = 2 * attn + ffn + 3 * 1024
    assert b.total == 37_000 * 512 + 6 * (enc + dec)
    assert 60e6 < b.total < 65e6


@pytest.mark.parametrize("config", [transformer_base, gpt2_small, qwen3_0_6b, deepseek_v3])
def test_components_sum_to_total_and_shares_to_one(config):
    b = config()
    assert sum(r.count for r in b.rows) == b.total
    assert sum(r.share for r in b.rows) == pytest.approx(1.0, abs=1e-12)
    assert b.leaves_out == b.config.leaves_out and b.model == b.config.model


@pytest.mark.parametrize("call, match", [
    (lambda: ffn_params(0), "d: expected a positive"),
    (lambda: ffn_params(8, 2.5), "d_ff"),
    (lambda: gated_ffn_params(8, -1), "h: expected"),
    (lambda: moe_params(8, 4, n_routed=4, top_k=1, n_shared=-1), "n_shared"),
    (lambda: embedding_params(True, 4), "vocab"),
])
def test_bad_arguments(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_breakdown_with_changed_sizes_gpt2_medium():
    """GPT-2 medium is GPT-2 small resized (d = 1024, 24 layers, 16 heads, d_ff = 4096): the
    released checkpoint has 354,823,168 parameters, and the labels follow the sizes."""
    from dataclasses import replace

    from mlp_ref.transformer_counts import GPT2_SMALL, breakdown
    medium = breakdown(replace(GPT2_SMALL, d_model=1024, layers=24, n_heads=16, n_kv_heads=16, d_ff=4096))
    assert medium.total == 354_823_168
    assert "FFN 1024 -> 4096 -> 1024 with biases" in [r.component for r in medium.rows]


def test_breakdown_of_each_config_is_its_published_function():
    from mlp_ref.transformer_counts import CONFIGS, breakdown
    assert [breakdown(c) for c in CONFIGS] == [gpt2_small(), transformer_base(), qwen3_0_6b(), deepseek_v3()]


@pytest.mark.parametrize("change, message", [
    (dict(n_heads=7), "n_heads: expected a divisor of d_model = 768"),
    (dict(n_kv_heads=5), "n_kv: expected a divisor of n_q = 12"),
    (dict(layers=0), "layers: expected a positive integer"),
])
def test_breakdown_refuses_sizes_that_do_not_fit(change, message):
    from dataclasses import replace

    from mlp_ref.transformer_counts import GPT2_SMALL, breakdown
    with pytest.raises(ValueError, match=message):
        breakdown(replace(GPT2_SMALL, **change))


def test_moe_breakdown_refuses_top_k_above_experts_and_too_few_layers():
    from dataclasses import replace

    from mlp_ref.transformer_counts import DEEPSEEK_V3, breakdown
    with pytest.raises(ValueError, match="top_k: expected at most n_routed = 4"):
        breakdown(replace(DEEPSEEK_V3, n_experts=4))
    with pytest.raises(ValueError, match="layers: expected at least the 3 dense layers, received 2"):
        breakdown(replace(DEEPSEEK_V3, layers=2))
    # fewer experts: the routed rows shrink in proportion, the label follows
    small = breakdown(replace(DEEPSEEK_V3, n_experts=64))
    assert small["routed experts, 58 layers x 64"].count * 4 == deepseek_v3()["routed experts, 58 layers x 256"].count
