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
    number = r" ([\d.]+) \|"
    row = re.search(r"^\| digits \| float64 \|" + number * 14, out, re.M)
    assert row, out
    fast, readable, sklearn, sklearn_val, floor, *ratios = map(float, row.groups()[:11])
    assert min(fast, readable, sklearn, floor) > 0 and sklearn_val > sklearn
    expected = [fast / sklearn, fast / sklearn_val, fast / floor, readable / sklearn_val, readable / floor,
                readable / fast]
    for shown, value in zip(ratios, expected):
        assert abs(shown - value) < 0.01 * value + 1e-3, (shown, value)
    assert re.search(r"^digits float64: floor without the validation products [\d.]+ ms", out, re.M), out
    assert re.search(r"^digits float64: fastest-slowest run \(ms\): fast [\d.]+-[\d.]+, readable [\d.]+-[\d.]+, "
                     r"sklearn", out, re.M), out
    assert re.search(r"^digits float64: fast/sklearn = [\d.]+ \(target <= 0\.4\) (met|NOT met)$", out, re.M), out
    assert re.search(r"^digits float64: readable/fast = [\d.]+ \(target <= 3\.0\) (met|NOT met)$", out, re.M), out


def test_the_floor_counts_the_validation_products():
    bench = _load("bench_mlp")
    assert bench._chunks(1000, 256) == [256, 256, 256, 232]
    assert bench._chunks(10, 256) == [10]
    train, val = bench.time_floor([8, 4, 3], n_rows=50, n_val=20, batch_size=16, dtype="float64")
    assert train > 0 and val > 0
