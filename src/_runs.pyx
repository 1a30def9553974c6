# cython: language_level=3
"""Compiled kernels of indist_fast out of core: sorted runs merged in one streaming sweep
(``summarize_runs``), and a range of a table swept from the state above it
(``sweep_range``).

Private; reached through ``indist_fast._core.fast`` (``indist_fast._core.reference`` is the
NumPy twin).
"""

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uintptr_t
from libcpp.vector cimport vector
from posix.mman cimport madvise, MADV_DONTNEED
from posix.unistd cimport sysconf, _SC_PAGESIZE

from indist_fast._core.types cimport count_t
from indist_fast._core.sweep cimport Sweep, Sink, Hull, sweep_push_at, sweep_start_at
from _common cimport *

from indist_fast._core.records import RangeSweep

cnp.import_array()

include "_sinks.pxi"


# ---------------------------------------------------------------------------
# Out-of-core: merge sorted runs from disk in one streaming sweep.

cdef struct Stream:
    const void* data            # ascending scores (float or double), read from the top
    Py_ssize_t left             # elements not yet taken
    bint is_float               # float32 data (else float64)
    bint positive               # the run's class
    double head                 # data[left - 1] while left > 0
    uintptr_t kept_end          # pages of the run at or above this address are released
    uintptr_t step              # consumed bytes kept resident before they are released


cdef enum:
    RELEASE_BYTES = 1 << 22     # the largest release step of a stream (4 MB)
    RELEASE_CHECK = 0x3FF       # a stream checks every 1024 elements (about a page)


cdef inline void _release_consumed(Stream* s, uintptr_t page, uintptr_t step) noexcept nogil:
    """Drop the resident pages a stream has read past (they are mapped run files) once
    more than ``step`` bytes of them are held; ``step`` 0 drops them all."""
    cdef uintptr_t size = 4 if s.is_float else 8
    cdef uintptr_t start = <uintptr_t>s.data + <uintptr_t>s.left * size
    start = (start + page - 1) // page * page         # whole pages only
    if s.kept_end > start + step:
        madvise(<void*>start, s.kept_end - start, MADV_DONTNEED)
        s.kept_end = start


cdef inline double _stream_head(Stream* s) noexcept nogil:
    if s.is_float:
        return <double>(<const float*>s.data)[s.left - 1]
    return (<const double*>s.data)[s.left - 1]


cdef inline void _sift_down(Stream* streams, int* heap, int n, int i) noexcept nogil:
    """Restore the max-heap of stream heads below position i."""
    cdef int child, top = heap[i]
    cdef double value = streams[top].head
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and streams[heap[child + 1]].head > streams[heap[child]].head:
            child += 1
        if streams[heap[child]].head <= value:
            break
        heap[i] = heap[child]
        i = child
    heap[i] = top


def summarize_runs(list runs, const double[::1] levels, bint exclude_self, object costs=None,
                   Py_ssize_t held_bytes=1 << 26):
    """Sweep sorted runs as if they were one array: a k-way merge over a heap.

    ``runs`` is a list of ``(scores, positive)``: ascending float32 or float64 scores of
    one class (typically memory-mapped run files). NumPy equivalent: concatenate the
    runs by class and ``summarize_sorted`` them. Pages of the runs already read are
    given back so that, across all runs, about ``held_bytes`` of them stay resident
    (each run keeps at least a page, and a run used up keeps none).
    """
    cdef Py_ssize_t n_streams = len(runs), k
    cdef vector[Stream] streams
    cdef vector[int] heap
    cdef Stream s
    cdef double weight_pos = 0.0, weight_neg = 0.0
    cdef int n_heap = 0
    cdef Sink sink
    cdef Hull hull
    cdef uintptr_t page = <uintptr_t>sysconf(_SC_PAGESIZE)
    # Every run holds up to its step at once: the budget is shared out between them.
    cdef uintptr_t step = <uintptr_t>max(held_bytes, 0) // <uintptr_t>max(n_streams, 1)
    step = max(page, min(step, <uintptr_t>RELEASE_BYTES))
    keep = []
    for scores, positive in runs:
        arr = np.ascontiguousarray(scores)
        if arr.ndim != 1 or arr.dtype not in (np.float32, np.float64):
            raise ValueError("runs must hold 1d float32 or float64 arrays")
        keep.append(arr)
        s.data = cnp.PyArray_DATA(arr)
        s.left = arr.shape[0]
        s.is_float = arr.dtype == np.float32
        s.positive = bool(positive)
        s.head = 0.0
        s.kept_end = (<uintptr_t>s.data + <uintptr_t>arr.nbytes) // page * page
        if s.positive:
            weight_pos += s.left
        else:
            weight_neg += s.left
        streams.push_back(s)
    _open_sweep(&sink, &hull, weight_pos, weight_neg, exclude_self, levels, costs)
    heap.resize(max(n_streams, 1))
    with nogil:
        for k in range(n_streams):
            if streams[k].left > 0:
                streams[k].head = _stream_head(&streams[k])
                heap[n_heap] = <int>k
                n_heap += 1
        for k in range(n_heap // 2 - 1, -1, -1):
            _sift_down(streams.data(), heap.data(), n_heap, <int>k)
        if sink.sweep_costs:
            _merge_runs(streams.data(), heap.data(), n_heap, &sink, page, step, <CostMode>0)
        else:
            _merge_runs(streams.data(), heap.data(), n_heap, &sink, page, step, <PlainMode>0)
    return _close_sweep(&sink)


cdef void _merge_runs(Stream* streams, int* heap, int n_heap, Sink* sink, uintptr_t page,
                      uintptr_t step, mode_t mode) noexcept nogil:
    """Add every row of the heaped streams to the sink, highest score first."""
    cdef int top
    # Invariant: heap[0] names the stream with the highest remaining score.
    while n_heap > 0:
        top = heap[0]
        if streams[top].positive:
            _add(sink, streams[top].head, 1.0, 0.0, mode, <Plain>0)
        else:
            _add(sink, streams[top].head, 0.0, 1.0, mode, <Plain>0)
        streams[top].left -= 1
        if streams[top].left > 0:
            streams[top].head = _stream_head(&streams[top])
            if (streams[top].left & RELEASE_CHECK) == 0:
                _release_consumed(&streams[top], page, step)
        else:
            _release_consumed(&streams[top], page, 0)    # nothing left to read
            n_heap -= 1
            heap[0] = heap[n_heap]
        if n_heap > 0:
            _sift_down(streams, heap, n_heap, 0)
    _flush(sink, mode, <Plain>0)


def sweep_range(const double[::1] scores, const count_t[::1] tp, const count_t[::1] fp,
                const double[::1] levels, bint exclude_self, double weight_pos,
                double weight_neg, double tp_above, double fp_above, double b_above):
    """Sweep one score range of a larger table, starting from the ranges above it.

    ``weight_pos``/``weight_neg`` are the whole data's totals; ``tp_above``,
    ``fp_above`` and ``b_above`` (G = 2 Num - Den of B, definitions "B(r)", in the sweep's scaled
    units, see ``sweep.pxd``) are the state after every higher range. TP inside the
    range is ``tp_above`` plus the range's own weights summed in order, so with
    ``tp_above`` the in-order sums of the range totals above (``ranges._offsets``) the
    last range ends exactly at ``weight_pos``. AUC and AP come back as this range's
    additive shares; the last field is the range's final G, the next range's
    ``b_above``. NumPy equivalent: ``indist_fast._core.reference.sweep_range``.
    """
    cdef Sink sink
    cdef Hull hull
    cdef Py_ssize_t g, m = scores.shape[0]
    if tp.shape[0] != m or fp.shape[0] != m:
        raise ValueError("scores, tp and fp differ in length")
    cdef double local = 0.0, t
    _open_sweep(&sink, &hull, weight_pos, weight_neg, exclude_self, levels, None)
    sweep_start_at(&sink.sweep, tp_above, fp_above, b_above)
    cdef double scale = sink.sweep.scale
    with nogil:
        for g in range(m):
            # TP = TP above + this range's own in-order sum: ranges then chain exactly.
            t = <double>tp[g]
            local += t
            sweep_push_at(&sink.sweep, scores[g], t * scale, <double>fp[g] * scale,
                          (tp_above + local) * scale)
    return RangeSweep(_close_sweep(&sink), sink.sweep.b_gap)
