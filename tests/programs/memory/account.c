// expect: TRUE
// why: withdraw refuses more than the balance and deposit only adds positive amounts, both through the account pointer, so after any sequence of operations the balance is never negative.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

struct account {
    int balance;
    int ops;
};

static int withdraw(struct account *a, int amount)
{
    if (amount <= 0 || amount > a->balance)
        return 0;
    a->balance -= amount;
    a->ops++;
    return 1;
}

static void deposit(struct account *a, int amount)
{
    if (amount > 0 && amount < 1000 && a->balance < 1000000) {
        a->balance += amount;
        a->ops++;
    }
}

void run_session(void)
{
    struct account acc = {0, 0};
    while (__VERIFIER_nondet_int()) {
        if (__VERIFIER_nondet_int())
            deposit(&acc, __VERIFIER_nondet_int());
        else
            withdraw(&acc, __VERIFIER_nondet_int());
        assert(acc.balance >= 0);
    }
}
