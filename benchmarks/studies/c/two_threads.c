/* A compute loop, memcpy and a summing read, on one thread and on two at once: whether
   the two cores run side by side.

       gcc -O2 -pthread -o two_threads benchmarks/c/two_threads.c && ./two_threads
*/
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
long N=20000000;
typedef struct {int kind; double t; double* a; double* b;} job;
static void* run(void* p){ job* j=p; double t0=now();
  if(j->kind==0){ volatile double x=1.0; double acc=0; for(long i=0;i<400000000;i++){acc=acc*1.0000001+x;} j->a[0]=acc; }
  else if(j->kind==1){ for(int r=0;r<5;r++) memcpy(j->b,j->a,N*8); }
  else { double s=0; for(int r=0;r<5;r++) for(long i=0;i<N;i++) s+=j->a[i]; j->b[0]=s; }
  j->t=now()-t0; return 0;}
int main(){
  for(int kind=0;kind<3;kind++){
    job j[2]; for(int i=0;i<2;i++){j[i].kind=kind; j[i].a=malloc(N*8); j[i].b=malloc(N*8); memset(j[i].a,1,N*8); memset(j[i].b,1,N*8);}
    run(&j[0]); double single=j[0].t;
    pthread_t th[2]; for(int i=0;i<2;i++) pthread_create(&th[i],0,run,&j[i]); for(int i=0;i<2;i++) pthread_join(th[i],0);
    printf("%s: single %.3f s, two at once %.3f / %.3f s\n", kind==0?"compute":kind==1?"memcpy 160MB x5":"sum read 160MB x5", single, j[0].t, j[1].t);
  }
}
