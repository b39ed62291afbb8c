"""C programs shared by the server tests."""

# Runs for minutes: a job to cancel.
# A program no engine decides quickly: explicit values count to four billion, and the counter
# lives in memory, which the Horn-clause encodings leave arbitrary (without the pointer,
# k-induction proves it at k = 3: a loop-head state past the bound fails within two steps).
SLOW = """extern void reach_error(void);
int main(void) {
  unsigned int i = 0;
  unsigned int *p = &i;
  while (*p < 4000000000U) { (*p)++; }
  if (i != 4000000000U) reach_error();
  return 0;
}
"""
