/* The radix fill's floor on this machine: single-thread ns a row of bare loops over
   1e7 float64 scores and uint8 labels, into 2**BITS buckets by the order bits' top
   bits (no plan table, no checks): words written in place, a histogram, a scatter by
   pre-counted cursors, and the fill's scheme (a cache line per bucket streamed out
   when full), without and with a positive count per bucket. The output has huge
   pages (madvise), as NumPy's arrays have.

       gcc -O3 -march=native -DBITS=11 -o scatter benchmarks/c/scatter.c && ./scatter
*/
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <immintrin.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static inline uint64_t ob(double x){x+=0.0;uint64_t u;memcpy(&u,&x,8);return u^((uint64_t)((int64_t)u>>63)|(1ULL<<63));}
#ifndef BITS
#define BITS 11
#endif
#define NB (1 << BITS)
int main(int argc,char**argv){
  long n=argc>1?atol(argv[1]):10000000;
  double*s=aligned_alloc(64,n*8);uint8_t*y=malloc(n);
  srand(1);for(long i=0;i<n;i++){s[i]=rand()/(double)RAND_MAX;y[i]=rand()&1;}
  uint64_t*out=aligned_alloc(64,(n+NB*512)*8+4096);
  madvise((void*)(((uintptr_t)out+(1<<21)-1)&~((uintptr_t)(1<<21)-1)),(n+NB*512)*8-(1<<21),MADV_HUGEPAGE);memset(out,0,(n+NB*512)*8);
  // bucket = key bits below top few: uniform in [0,1): order bits 0xBFF0.. etc use mantissa top bits
  // Use shift on mantissa: for x in [0.5,1) top mantissa bits. emulate table-free: k=(key>>(52-BITS))&(NB-1)
  static uint64_t lines[NB*8] __attribute__((aligned(64)));
  static int64_t fill[NB], pos[NB], start[NB];
  for(int rep=0;rep<3;rep++){
  double t0=now();
  // V0: contiguous words
  for(long i=0;i<n;i++){out[i]=(ob(s[i])<<1)|y[i];}
  double t1=now();
  // V1: histogram
  memset(fill,0,sizeof fill);
  for(long i=0;i<n;i++){uint64_t k=(ob(s[i])>>(52-BITS))&(NB-1);fill[k]++;}
  double t2=now();
  // V2: scatter to pre-counted starts directly (regular stores)
  long acc=0;for(int k=0;k<NB;k++){start[k]=acc;acc+=fill[k];}
  for(long i=0;i<n;i++){uint64_t key=ob(s[i]);uint64_t k=(key>>(52-BITS))&(NB-1);out[start[k]++]=(key<<1)|y[i];}
  double t3=now();
  // V3: line buffer + NT stores
  acc=0;for(int k=0;k<NB;k++){start[k]=acc;acc+=(fill[k]+7)&~7L; fill[k]=0;}
  for(long i=0;i<n;i++){uint64_t key=ob(s[i]);uint64_t k=(key>>(52-BITS))&(NB-1);int64_t c=fill[k];
     uint64_t w=(key<<1)|y[i]; lines[k*8+(c&7)]=w; fill[k]=c+1;
     if(((c+1)&7)==0){ __m512i v=_mm512_load_si512(&lines[k*8]); _mm512_stream_si512((__m512i*)(out+start[k]+c-7),v);} }
  _mm_sfence();
  double t4=now();
  // V4: V3 + pos count
  acc=0;for(int k=0;k<NB;k++){fill[k]=0;pos[k]=0;}
  for(long i=0;i<n;i++){uint64_t key=ob(s[i]);uint64_t k=(key>>(52-BITS))&(NB-1);int64_t c=fill[k];
     uint64_t w=(key<<1)|y[i]; pos[k]+=y[i]; lines[k*8+(c&7)]=w; fill[k]=c+1;
     if(((c+1)&7)==0){ __m512i v=_mm512_load_si512(&lines[k*8]); _mm512_stream_si512((__m512i*)(out+start[k]+c-7),v);} }
  _mm_sfence();
  double t5=now();
  printf("contig %.2f hist %.2f scatter %.2f linesNT %.2f linesNT+pos %.2f ns/row\n",(t1-t0)/n*1e9,(t2-t1)/n*1e9,(t3-t2)/n*1e9,(t4-t3)/n*1e9,(t5-t4)/n*1e9);
  }
  return 0;}
