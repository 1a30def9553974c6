# cython: language_level=3
"""The array element types the kernels are compiled for.

Labels arrive in any integer or float dtype NumPy gives them (bool as uint8); scores
are float32 or float64; a score table counts rows in int64 or sums weights in float64.
"""

from libc.stdint cimport int64_t, uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int16_t, int32_t

ctypedef fused label_t:
    uint8_t
    int8_t
    int16_t
    int32_t
    int64_t
    uint16_t
    uint32_t
    uint64_t
    float
    double

ctypedef fused score_t:
    float
    double

ctypedef fused count_t:
    int64_t
    double
