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


def test_large_fractional_weights_print_without_e_notation(backend):
    r = indist_fast.evaluate([1, 0, 0], [0.9, 0.1, 0.5], sample_weight=[1940290.37, 2.5, 0.5],
                             levels=(0.5,))
    first = str(r).splitlines()[0]
    assert "positives 1,940,290   negatives 3" in first and "e+" not in first


def test_count_text_keeps_significant_digits_in_fixed_notation():
    from indist_fast.results.report import count_text
    assert count_text(4749950.0) == "4,749,950"
    assert count_text(1940290.37) == "1,940,290"
    assert count_text(12.3456789) == "12.3457"
    assert count_text(0.37) == "0.37"
    assert count_text(12.3456789, 4) == "12.35"
    assert count_text(2.5e-7) == "2.5e-07"          # mostly zeros in fixed notation
