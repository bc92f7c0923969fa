"""The statistics of a simulation report: Wilson intervals, the paired interval of an A/B comparison,
Bradley–Terry ratings (on the Elo scale: 400·log10 of the strength, mean 0, standard errors from the
Fisher information; every pair of entries gets one virtual draw so that a perfect record stays finite)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (successes may be fractional: draws count half)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, centre - half), min(1.0, centre + half))


def diff_interval(s1: float, n1: int, s2: float, n2: int, z: float = Z95) -> tuple[float, float]:
    """95% interval of p1 − p2 for two independent proportions: Newcombe's hybrid score interval (from the
    two Wilson intervals; it stays inside [−1, 1] and behaves at 0% and 100%)."""
    if n1 <= 0 or n2 <= 0:
        return (-1.0, 1.0)
    p1, p2 = s1 / n1, s2 / n2
    l1, u1 = wilson(s1, n1, z)
    l2, u2 = wilson(s2, n2, z)
    d = p1 - p2
    return (max(-1.0, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)),
            min(1.0, d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)))


def paired_interval(diffs: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high) of paired differences (each match of one list against the same match of the
    other: same seed, opponent and seats), a normal interval on the mean."""
    n = len(diffs)
    if n == 0:
        return (0.0, -1.0, 1.0)
    mean = sum(diffs) / n
    if n == 1:
        return (mean, -1.0, 1.0)
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = z * math.sqrt(var / n)
    return (mean, max(-1.0, mean - half), min(1.0, mean + half))


def bradley_terry(names: Sequence[str], games: dict[tuple[int, int], tuple[float, int]],
                  iterations: int = 2000) -> list[dict[str, Any]]:
    """Ratings from pairwise results: games[(i, j)] = (points of i against j, matches), i < j.

    MM algorithm (Hunter 2004) with one virtual draw per pair; Elo scale, mean 0; 95% intervals from
    the inverse Fisher information (pseudo-inverse: the mean is fixed)."""
    k = len(names)
    if k == 0:
        return []
    wins = [0.0] * k
    n = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(i + 1, k):
            pts, m = games.get((i, j), (0.0, 0))
            pts, m = pts + 0.5, m + 1            # the virtual draw
            wins[i] += pts
            wins[j] += m - pts
            n[i][j] += m
            n[j][i] += m
    s = [1.0] * k
    for _ in range(iterations):
        new = []
        for i in range(k):
            den = sum(n[i][j] / (s[i] + s[j]) for j in range(k) if j != i and n[i][j])
            new.append(wins[i] / den if den else s[i])
        g = math.exp(sum(math.log(x) for x in new) / k)
        new = [x / g for x in new]
        if max(abs(a - b) for a, b in zip(new, s, strict=True)) < 1e-12:
            s = new
            break
        s = new
    theta = [math.log(x) for x in s]
    # Fisher information L (a weighted graph Laplacian); covariance = pseudo-inverse of L
    lap = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(k):
            if i != j and n[i][j]:
                p = s[i] / (s[i] + s[j])
                w = n[i][j] * p * (1 - p)
                lap[i][j] -= w
                lap[i][i] += w
    cov = _pinv_laplacian(lap)
    scale = 400 / math.log(10)
    out: list[dict[str, Any]] = []
    for i, name in enumerate(names):
        se = math.sqrt(max(0.0, cov[i][i])) * scale
        r = theta[i] * scale
        out.append({"name": name, "rating": round(r, 1), "ci95": [round(r - Z95 * se, 1), round(r + Z95 * se, 1)],
                    "points": round(wins[i] - 0.5 * (k - 1), 2)})
    out.sort(key=lambda d: (-d["rating"], d["name"]))
    return out


def _pinv_laplacian(lap: list[list[float]]) -> list[list[float]]:
    k = len(lap)
    a = [[lap[i][j] + 1.0 / k for j in range(k)] for i in range(k)]
    inv = _invert(a)
    return [[inv[i][j] - 1.0 / k for j in range(k)] for i in range(k)]


def _invert(m: list[list[float]]) -> list[list[float]]:
    k = len(m)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(k)] for i, row in enumerate(m)]
    for c in range(k):
        piv = max(range(c, k), key=lambda r: abs(a[r][c]))
        if abs(a[piv][c]) < 1e-15:
            return [[0.0] * k for _ in range(k)]
        a[c], a[piv] = a[piv], a[c]
        pv = a[c][c]
        a[c] = [x / pv for x in a[c]]
        for r in range(k):
            if r != c and a[r][c]:
                f = a[r][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c], strict=True)]
    return [row[k:] for row in a]

