/* __VERIFIER_* stubs for running the realcode harnesses natively with gcc.
 *
 * The nondeterministic input is a byte string. Each __VERIFIER_nondet_T() call takes the
 * next sizeof(T) bytes of it, little-endian (a _bool takes one byte, of which bit 0 counts);
 * past the end of the string every byte is 0.  __VERIFIER_assume(0) ends the run quietly.
 *
 * Two ways to build it:
 *
 *   standalone (default): the harness keeps its own main().
 *       gcc -std=gnu11 -g -fsanitize=address,undefined harness.c lib.c stubs.c -o h
 *       ./h c3ff01          input given as hex on the command line
 *       ./h @input.bin      input read from a file
 *       ./h                 input read from the environment variable NONDET_HEX, else empty
 *     reach_error() calls glibc's __assert_fail, so reaching it aborts (status 134).
 *     A run that __VERIFIER_assume() rules out exits with status 0 and says so on stderr.
 *
 *   driver (-DNONDET_DRIVER, harness compiled with -Dmain=cbam_harness_main): this file's
 *     main() runs the harness many times in one process (see usage() below) and reports
 *     the first input that reaches reach_error, or that a sanitizer stops at.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <setjmp.h>
#include <time.h>

#define MAX_INPUT 4096

static unsigned char input[MAX_INPUT];
static size_t input_len;
static size_t input_pos;
static size_t input_used; /* bytes the current run has asked for, including zeros past the end */

static size_t take(void *dst, size_t n)
{
    unsigned char *d = dst;
    size_t i;
    for (i = 0; i < n; i++) {
        d[i] = input_pos < input_len ? input[input_pos] : 0;
        input_pos++;
    }
    if (input_pos > input_used)
        input_used = input_pos;
    return n;
}

#define NONDET(T, name) T name(void) { T v; take(&v, sizeof v); return v; }
NONDET(int, __VERIFIER_nondet_int)
NONDET(unsigned int, __VERIFIER_nondet_uint)
NONDET(unsigned int, __VERIFIER_nondet_unsigned)
NONDET(char, __VERIFIER_nondet_char)
NONDET(unsigned char, __VERIFIER_nondet_uchar)
NONDET(short, __VERIFIER_nondet_short)
NONDET(unsigned short, __VERIFIER_nondet_ushort)
NONDET(long, __VERIFIER_nondet_long)
NONDET(unsigned long, __VERIFIER_nondet_ulong)
NONDET(size_t, __VERIFIER_nondet_size_t)
_Bool __VERIFIER_nondet_bool(void) { unsigned char b; take(&b, 1); return b & 1; }

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int set_hex(const char *s)
{
    input_len = 0;
    while (s[0] && s[1] && input_len < MAX_INPUT) {
        int hi = hexval(s[0]), lo = hexval(s[1]);
        if (hi < 0 || lo < 0) return -1;
        input[input_len++] = (unsigned char)(hi * 16 + lo);
        s += 2;
    }
    return *s ? -1 : 0;
}

static void print_hex(FILE *f, size_t n)
{
    size_t i;
    if (n == 0) { fputs("(empty)", f); return; }
    for (i = 0; i < n; i++)
        fprintf(f, "%02x", i < input_len ? input[i] : 0);
}

/* The shortest prefix of the input that gives the same run: what the run asked for, less
   trailing zero bytes (which the stubs supply anyway). */
static size_t used_len(void)
{
    size_t n = input_used < input_len ? input_used : input_len;
    while (n > 0 && input[n - 1] == 0) n--;
    return n;
}

#ifndef NONDET_DRIVER

static void load_input(int argc, char **argv, char **envp)
{
    (void)envp;
    if (argc > 1 && argv[1][0] == '@') {
        FILE *f = fopen(argv[1] + 1, "rb");
        if (!f) { perror(argv[1] + 1); exit(2); }
        input_len = fread(input, 1, MAX_INPUT, f);
        fclose(f);
    } else if (argc > 1) {
        if (set_hex(argv[1])) { fprintf(stderr, "stubs: bad hex input\n"); exit(2); }
    } else if (getenv("NONDET_HEX")) {
        if (set_hex(getenv("NONDET_HEX"))) { fprintf(stderr, "stubs: bad NONDET_HEX\n"); exit(2); }
    }
}

/* glibc passes (argc, argv, envp) to constructors: the input is loaded before main(). */
__attribute__((constructor)) static void stubs_init(int argc, char **argv, char **envp)
{
    load_input(argc, argv, envp);
}

void __VERIFIER_assume(int cond)
{
    if (!cond) {
        fprintf(stderr, "stubs: input ruled out by __VERIFIER_assume\n");
        exit(0);
    }
}

#else /* NONDET_DRIVER */

int cbam_harness_main(void);

static jmp_buf run_env;
static int in_run;
static const char *assert_text, *assert_file, *assert_func;
static unsigned assert_line;

enum { RUN_OK = 0, RUN_REACHED = 1, RUN_LIB_ASSERT = 2, RUN_ASSUMED = 3 };

void __VERIFIER_assume(int cond)
{
    if (!cond) {
        if (in_run) longjmp(run_env, RUN_ASSUMED);
        exit(0);
    }
}

/* reach_error() calls this with function "reach_error"; assert() in a library calls it too. */
void __assert_fail(const char *assertion, const char *file, unsigned int line, const char *function)
{
    assert_text = assertion; assert_file = file; assert_line = line; assert_func = function;
    if (in_run)
        longjmp(run_env, strcmp(function, "reach_error") == 0 ? RUN_REACHED : RUN_LIB_ASSERT);
    fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, assertion);
    abort();
}

/* Called by ASan/UBSan (built with -fno-sanitize-recover) before they end the process. */
extern void __sanitizer_set_death_callback(void (*)(void));
static void on_death(void)
{
    fputs("\nNONDET_INPUT ", stderr);
    print_hex(stderr, used_len());
    fputs("\n", stderr);
}

static int run_one(void)
{
    int r;
    input_pos = 0;
    input_used = 0;
    in_run = 1;
    r = setjmp(run_env);
    if (r == 0) {
        cbam_harness_main();
        r = RUN_OK;
    }
    in_run = 0;
    return r;
}

static uint64_t rng_state;
static unsigned rnd(void)
{
    /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (unsigned)((rng_state * 2685821657736338717ULL) >> 32);
}

/* Bytes that small bounded inputs are made of more often than chance gives them. */
static const unsigned char interesting[] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15, 16, 17, 31, 32, 63, 64, 0x7f, 0x80, 0x81,
    0xbf, 0xc0, 0xc2, 0xdf, 0xe0, 0xef, 0xf0, 0xf4, 0xf7, 0xf8, 0xfe, 0xff,
    ' ', '\t', '\n', '\r', '"', ',', ':', ';', '=', '[', ']', '{', '}', '\\', 'a', 'b', 'u', '0', '1', '#',
};

static void usage(void)
{
    fprintf(stderr,
            "usage: driver replay HEX\n"
            "       driver random N SEED LEN [SECONDS]   N inputs of LEN bytes, half uniform,\n"
            "                                            half from a set of interesting bytes\n"
            "       driver exhaust K [SECONDS]           every input of K bytes (K <= 3)\n"
            "prints FAIL <kind> <hex> at the first failing run, then DONE runs=..\n");
    exit(2);
}

static int report(int r, long runs)
{
    if (r == RUN_REACHED || r == RUN_LIB_ASSERT) {
        printf("FAIL %s ", r == RUN_REACHED ? "reach_error" : "library-assert");
        print_hex(stdout, used_len());
        printf(" at %s:%u %s\n", assert_file, assert_line,
               r == RUN_REACHED ? "" : assert_text);
        printf("DONE runs=%ld\n", runs);
        fflush(stdout);
        _exit(1); /* skip LeakSanitizer: the run was cut short */
    }
    return r == RUN_ASSUMED;
}

int main(int argc, char **argv)
{
    long runs = 0, assumed = 0;
    time_t deadline = 0;
    __sanitizer_set_death_callback(on_death);
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc < 2) usage();
    if (!strcmp(argv[1], "replay") && argc == 3) {
        if (set_hex(argv[2])) usage();
        assumed += report(run_one(), ++runs);
    } else if (!strcmp(argv[1], "random") && argc >= 5) {
        long n = atol(argv[2]), i;
        size_t len = (size_t)atol(argv[4]), j;
        rng_state = (uint64_t)atoll(argv[3]) * 0x9E3779B97F4A7C15ULL + 1;
        if (argc > 5) deadline = time(NULL) + atol(argv[5]);
        if (len > MAX_INPUT) usage();
        for (i = 0; i < n; i++) {
            int mode = (int)(i & 1);
            input_len = len;
            for (j = 0; j < len; j++)
                input[j] = mode ? interesting[rnd() % sizeof interesting] : (unsigned char)rnd();
            assumed += report(run_one(), ++runs);
            if (deadline && (i & 255) == 0 && time(NULL) > deadline) break;
        }
    } else if (!strcmp(argv[1], "exhaust") && argc >= 3) {
        int k = atoi(argv[2]);
        unsigned long total, v;
        int j;
        if (k < 0 || k > 3) usage();
        if (argc > 3) deadline = time(NULL) + atol(argv[3]);
        total = 1UL << (8 * k);
        for (v = 0; v < total; v++) {
            input_len = (size_t)k;
            for (j = 0; j < k; j++) input[j] = (unsigned char)(v >> (8 * j));
            assumed += report(run_one(), ++runs);
            if (deadline && (v & 255) == 0 && time(NULL) > deadline) break;
        }
    } else {
        usage();
    }
    printf("DONE runs=%ld assumed=%ld\n", runs, assumed);
    return 0;
}

#endif /* NONDET_DRIVER */
