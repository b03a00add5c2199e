"""The statistics `yariboard bench web` prints its comparison with."""
import itertools

import pytest

from yariboard.benchmarks.web import sign_test


def enumerated_p(differences):
    """The two-sided sign test's p by brute force: the share of all equally likely sign
    patterns of the untied differences at least as lopsided as the one observed."""
    signs = [d > 0 for d in differences if d != 0]
    observed = abs(2 * sum(signs) - len(signs))
    patterns = list(itertools.product((False, True), repeat=len(signs)))
    return sum(abs(2 * sum(p) - len(p)) >= observed for p in patterns) / len(patterns)


@pytest.mark.parametrize("differences", [
    [1, 2, 3, -1, 4, 5, 6, -2, 7, 8, 9, 1],          # 10 of 12 longer
    [1, -1, 2, -2, 3, -3, 4, -4, 0, 0],              # an even split, ties left out
    [0.5] * 9,                                       # every pair longer
    [-0.1, -0.2, 0.3, -0.4, -0.5, 0.1, -0.7],
])
def test_the_sign_test_agrees_with_counting_every_sign_pattern(differences):
    positive, counted, p = sign_test(differences)
    assert positive == sum(d > 0 for d in differences)
    assert counted == sum(d != 0 for d in differences)
    assert p == pytest.approx(enumerated_p(differences))


def test_nine_of_twelve_pairs_is_not_enough_ten_is():
    # the published table of the sign test: two-sided p for 9 of 12 is 0.146, for 10 of 12 0.039
    assert sign_test([1] * 9 + [-1] * 3)[2] == pytest.approx(0.146, abs=0.001)
    assert sign_test([1] * 10 + [-1] * 2)[2] == pytest.approx(0.039, abs=0.001)
