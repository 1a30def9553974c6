"""A report's first line prints class weights as people read counts."""

import indist_fast


def test_whole_weights_print_in_full_with_separators(backend):
    r = indist_fast.evaluate([1, 0, 0], [0.9, 0.1, 0.5], sample_weight=[4749950, 3, 2], levels=(0.5,))
    first = str(r).splitlines()[0]
    assert "positives 4,749,950" in first and "negatives 5" in first and "e+" not in first


def test_fractional_weights_keep_six_digits(backend):
    r = indist_fast.evaluate([1, 0], [0.9, 0.1], sample_weight=[0.37, 1.25],
                             levels=(0.5,), exclude_self=False)
    assert "positives 0.37   negatives 1.25" in str(r).splitlines()[0]
