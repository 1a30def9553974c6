/* Bucket ids of 2,048 float64 scores (in L1), ns a row: the kernel's loop as GCC
   compiles it with target clones (ids_ref, a copy of indist_fast_bucket_ids64) against
   512-bit lanes with gathers (ids_512, a copy of indist_bucket_ids64_avx512); checks
   that both give the same ids.

       gcc -O3 -o bucket_ids benchmarks/c/bucket_ids.c && ./bucket_ids
*/
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <immintrin.h>
typedef long npy_intp;
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
__attribute__((target_clones("avx512f", "avx2", "default")))
npy_intp ids_ref(const double* s, npy_intp n, const uint64_t* table, int64_t base, int64_t last, uint16_t* out) {
    npy_intp n_nan = 0;
    for (npy_intp i = 0; i < n; i++) {
        n_nan += s[i] != s[i];
        double x = s[i] + 0.0; uint64_t u; memcpy(&u, &x, 8);
        uint64_t key = u ^ ((uint64_t)((int64_t)u >> 63) | ((uint64_t)1 << 63));
        int64_t j = (int64_t)(key >> 48) - base;
        j = j < 0 ? 0 : j; j = j > last ? last : j;
        uint64_t e = table[j];
        out[i] = (uint16_t)((e & 0xFFFFFFFFu) + ((key >> ((e >> 32) & 0xFF)) & (e >> 48)));
    }
    return n_nan;
}
__attribute__((target("avx512f,avx512dq,avx512vl,avx512bw")))
npy_intp ids_512(const double* s, npy_intp n, const uint64_t* table, int64_t base, int64_t last, uint16_t* out) {
    const __m512d zero = _mm512_setzero_pd();
    const __m512i top = _mm512_set1_epi64((long long)(1ULL << 63)), z = _mm512_setzero_si512();
    const __m512i vbase = _mm512_set1_epi64(base), vlast = _mm512_set1_epi64(last);
    const __m512i low32 = _mm512_set1_epi64(0xFFFFFFFFLL), m8 = _mm512_set1_epi64(0xFF);
    npy_intp i = 0, n_nan = 0;
    for (; i + 8 <= n; i += 8) {
        __m512d x = _mm512_add_pd(_mm512_loadu_pd(s + i), zero);
        n_nan += __builtin_popcount(_mm512_cmp_pd_mask(x, x, _CMP_UNORD_Q));
        __m512i u = _mm512_castpd_si512(x);
        __m512i key = _mm512_xor_si512(u, _mm512_or_si512(_mm512_srai_epi64(u, 63), top));
        __m512i j = _mm512_sub_epi64(_mm512_srli_epi64(key, 48), vbase);
        j = _mm512_min_epi64(_mm512_max_epi64(j, z), vlast);
        __m512i e = _mm512_i64gather_epi64(j, (const long long*)table, 8);
        __m512i sh = _mm512_and_si512(_mm512_srli_epi64(e, 32), m8);
        __m512i id = _mm512_add_epi64(_mm512_and_si512(e, low32),
                        _mm512_and_si512(_mm512_srlv_epi64(key, sh), _mm512_srli_epi64(e, 48)));
        _mm_storeu_si128((__m128i*)(out + i), _mm512_cvtepi64_epi16(id));
    }
    return n_nan + ids_ref(s + i, n - i, table, base, last, out + i);
}
int main(){
  long n=2048; int reps=20000;
  double*s=malloc(n*8); uint16_t*o1=malloc(n*2),*o2=malloc(n*2);
  srand(3); for(long i=0;i<n;i++) s[i]=((rand()/(double)RAND_MAX)-0.3)*8;
  // table: prefixes 0x3F00..0xC100 (enough), each 8 sub-buckets
  int64_t base=0x3F00-1; int64_t last=0xC100-0x3F00+2; uint64_t*table=malloc((last+1)*8);
  table[0]=0; uint64_t nb=1;
  for(int64_t p=1;p<last;p++){table[p]=nb|((uint64_t)(48-3)<<32)|((uint64_t)7<<48); nb+=8;}
  table[last]=nb;
  for(int r=0;r<3;r++){
   double t0=now(); long a=0; for(int k=0;k<reps;k++) a+=ids_ref(s,n,table,base,last,o1);
   double t1=now(); for(int k=0;k<reps;k++) a+=ids_512(s,n,table,base,last,o2);
   double t2=now();
   printf("ref %.3f ns/row  avx512 %.3f ns/row  same=%d\n",(t1-t0)/n/reps*1e9,(t2-t1)/n/reps*1e9, memcmp(o1,o2,n*2)==0);
  }
}
