"""A speed probe of the machine CI runs on, printed in .ci/run's recap: CI times differ up to twice between days
on the same code, so the recap says how fast this machine was (one BLAS thread; fastest of a few runs)."""

import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402  (after the thread settings)


def fastest(f, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
    return best


def loop() -> int:
    s = 0
    for i in range(5_000_000):
        s += i * i
    return s


a = np.random.default_rng(0).random((2000, 2000))
print(
    f"machine probe: 2000 x 2000 float64 product {fastest(lambda: a @ a, 5):.3f} s (one thread), "
    f"Python loop of 5e6 {fastest(loop, 3):.3f} s; {os.cpu_count()} cores"
)
