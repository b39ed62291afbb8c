// expect: FALSE line=44
// why: a round retries a job while tries <= MAX_TRIES (off by one), so after four rounds that all fail one job has tries == 4 and the audit fails.
#include <assert.h>
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

#define MAX_PRIO 7
#define MAX_TRIES 3

struct job {
    int prio;
    int tries;
    struct job *next;
};

static int schedule(struct job **queue, int prio)
{
    if (prio < 1 || prio > MAX_PRIO)
        return 0;
    struct job *j = malloc(sizeof *j);
    if (j == NULL)
        return 0;
    j->prio = prio;
    j->tries = 0;
    j->next = *queue;
    *queue = j;
    return 1;
}

void audit_queue(void)
{
    struct job *queue = NULL;
    while (__VERIFIER_nondet_int())
        schedule(&queue, __VERIFIER_nondet_int());
    while (__VERIFIER_nondet_int()) {
        /* one round: each job may fail once more, up to its limit */
        for (struct job *j = queue; j != NULL; j = j->next)
            if (j->tries <= MAX_TRIES && __VERIFIER_nondet_int())
                j->tries++;
    }
    for (struct job *j = queue; j != NULL; j = j->next) {
        assert(j->prio >= 1 && j->prio <= MAX_PRIO);
        assert(j->tries <= MAX_TRIES);
    }
}
