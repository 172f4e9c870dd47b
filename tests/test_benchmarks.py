"""The benchmark scripts run and print their report (a smoke test: no timing is asserted)."""

import importlib.util
import re
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


def _load(name):
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_mlp_prints_its_table_and_verdicts(capsys):
    bench = _load("bench_mlp")
    assert bench.main(["--repeats", "1", "--only", "digits"]) == 0
    out = capsys.readouterr().out
    row = re.search(r"^\| digits \| float64 \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|", out, re.M)
    assert row, out
    ours, sklearn, floor, vs_sklearn, vs_floor = map(float, row.groups())
    assert min(ours, sklearn, floor) > 0
    assert abs(vs_sklearn - ours / sklearn) < 0.01 * vs_sklearn + 1e-3
    assert abs(vs_floor - ours / floor) < 0.01 * vs_floor + 1e-3
    assert re.search(r"^digits float64: floor without the validation products [\d.]+ ms", out, re.M), out
    assert re.search(r"^digits float64: sklearn plus one predict_proba .* [\d.]+ ms, mlp_ref/that = [\d.]+$", out, re.M), out
    assert re.search(r"^digits float64: fastest-slowest run \(ms\): mlp_ref [\d.]+-[\d.]+, sklearn", out, re.M), out
    assert re.search(r"^digits float64: mlp_ref/sklearn = [\d.]+ \(target <= 0\.4\) (met|NOT met)$", out, re.M), out


def test_the_floor_counts_the_validation_products():
    bench = _load("bench_mlp")
    assert bench._chunks(1000, 256) == [256, 256, 256, 232]
    assert bench._chunks(10, 256) == [10]
    train, val = bench.time_floor([8, 4, 3], n_rows=50, n_val=20, batch_size=16, dtype="float64")
    assert train > 0 and val > 0
