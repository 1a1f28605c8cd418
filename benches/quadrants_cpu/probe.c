// The machine's limits, for bench.py: f32 FMA throughput (GFLOP/s) and memcpy bandwidth (GB/s),
// on 1 thread and on T threads. Compiled by bench.py with cc -O3 -march=native.
// Usage: probe THREADS. Prints one JSON object.
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// 64-byte vectors of f32: one zmm register with AVX-512, two ymm without; 12 independent chains
// cover the FMA latency (4 cycles) times the FMA ports (2 on current x86 cores).
typedef float v16 __attribute__((vector_size(64)));
#define CHAINS 12
#define FMA_ITERS 20000000L
#define COPY_BYTES (256L << 20)
#define COPY_REPS 4

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static volatile float sink;

static void *fma_worker(void *arg) {
    (void)arg;
    v16 acc[CHAINS], m, a;
    for (int i = 0; i < 16; i++) {
        m[i] = 0.999999f;
        a[i] = 1e-7f;
    }
    for (int c = 0; c < CHAINS; c++) acc[c] = m * (float)(c + 1);
    for (long it = 0; it < FMA_ITERS; it++) {
        for (int c = 0; c < CHAINS; c++) acc[c] = acc[c] * m + a;
        // Keeps the compiler from collapsing the loop while the chains stay in registers.
        __asm__ volatile("" : "+v"(acc[0]), "+v"(acc[CHAINS - 1]));
    }
    float s = 0;
    for (int c = 0; c < CHAINS; c++) s += acc[c][0] + acc[c][15];
    sink = s;
    return NULL;
}

struct copy {
    char *src, *dst;
    long bytes;
};

static void *copy_worker(void *arg) {
    struct copy *c = arg;
    for (int r = 0; r < COPY_REPS; r++) {
        memcpy(c->dst, c->src, c->bytes);
        __asm__ volatile("" : : "r"(c->dst) : "memory");
    }
    return NULL;
}

// Buffers touched once before timing, so that page faults are not counted.
static struct copy *buffers(int n, long bytes) {
    struct copy *c = calloc(n, sizeof *c);
    for (int i = 0; i < n; i++) {
        c[i].src = malloc(bytes);
        c[i].dst = malloc(bytes);
        c[i].bytes = bytes;
        memset(c[i].src, 1, bytes);
        memset(c[i].dst, 2, bytes);
    }
    return c;
}

// Seconds for `threads` workers running `f` at once, worker i on arg + i * size.
static double run(int threads, void *(*f)(void *), char *arg, size_t size) {
    pthread_t t[256];
    double t0 = now();
    for (int i = 0; i < threads; i++) pthread_create(&t[i], NULL, f, arg ? arg + i * size : NULL);
    for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
    return now() - t0;
}

int main(int argc, char **argv) {
    int threads = argc > 1 ? atoi(argv[1]) : 1;
    if (threads < 1 || threads > 256) threads = 1;
    double flops = 2.0 * 16 * CHAINS * FMA_ITERS;
    double f1 = flops / run(1, fma_worker, NULL, 0) / 1e9;
    double fn = threads * flops / run(threads, fma_worker, NULL, 0) / 1e9;
    // Each thread copies its own buffers; a copy reads and writes every byte: 2 x bytes moved.
    long each = COPY_BYTES / threads;
    struct copy *one = buffers(1, COPY_BYTES), *all = buffers(threads, each);
    double m1 = 2.0 * COPY_REPS * COPY_BYTES / run(1, copy_worker, (char *)one, 0) / 1e9;
    double mn = 2.0 * COPY_REPS * each * threads /
                run(threads, copy_worker, (char *)all, sizeof *all) / 1e9;
    printf("{\"fma_gflops_1\": %.2f, \"fma_gflops_all\": %.2f, \"copy_gbs_1\": %.2f, "
           "\"copy_gbs_all\": %.2f, \"threads\": %d}\n", f1, fn, m1, mn, threads);
    return 0;
}
