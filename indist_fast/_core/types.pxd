# cython: language_level=3
"""The array element types the kernels are compiled for.

Labels come in the dtypes columns of labels have in practice (bool viewed as uint8;
the rest of NumPy's integer widths are brought to int32 or int64 by the validation, with
the same values, so each kernel is compiled six times per label, not ten); scores are
float32 or float64; a score table counts rows in int64 or sums weights in float64.
"""

from libc.stdint cimport int64_t, uint8_t, int8_t, int32_t

ctypedef fused label_t:
    uint8_t
    int8_t
    int32_t
    int64_t
    float
    double

ctypedef fused score_t:
    float
    double

ctypedef fused count_t:
    int64_t
    double
