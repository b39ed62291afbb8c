// expect: FALSE line=16
// why: the prefix test compares only 3 characters of "cmd:", so a buffer starting with "cmd" followed by anything but ':' (e.g. "cmdx") passes the test and breaks the assert on s[3].
#include <assert.h>
#include <string.h>

static int has_cmd_prefix(const char *s)
{
    return strncmp(s, "cmd:", 3) == 0;   /* bug: the prefix has 4 characters */
}

int command_arg_offset(char *s)
{
    s[15] = '\0';
    if (!has_cmd_prefix(s))
        return -1;
    assert(s[3] == ':');
    return 4;
}
