// expect: FALSE line=37
// why: withdraw checks the amount against the balance plus one, so withdrawing balance + 1 overdraws the account by one.
#include <assert.h>

extern int __VERIFIER_nondet_int(void);

struct account {
    int balance;
    int ops;
};

static int withdraw(struct account *a, int amount)
{
    if (amount <= 0 || amount > a->balance + 1)
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
