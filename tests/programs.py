"""C programs shared by the server tests."""

# Runs for minutes: a job to cancel.
SLOW = """extern void reach_error(void);
int main(void) {
  unsigned int i = 0;
  while (i < 4000000000U) { i++; }
  if (i != 4000000000U) reach_error();
  return 0;
}
"""
