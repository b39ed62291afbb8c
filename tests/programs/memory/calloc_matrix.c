// expect: TRUE
// why: calloc zero-fills rows*cols ints (at most 16), the identity is written only on the min(rows, cols) diagonal cells, so the matrix has exactly min(rows, cols) nonzero entries summing to its trace; the matrix is freed.
#include <assert.h>
#include <stdlib.h>

static int min(int a, int b)
{
    return a < b ? a : b;
}

void identity_matrix(int rows, int cols)
{
    int *m;
    int i, j, nz = 0, trace = 0;

    if (rows < 1 || rows > 4 || cols < 1 || cols > 4)
        return;
    m = calloc((size_t)rows * (size_t)cols, sizeof *m);
    if (m == NULL)
        return;
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++)
            assert(m[i * cols + j] == 0);
    for (i = 0; i < min(rows, cols); i++)
        m[i * cols + i] = 1;
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++)
            if (m[i * cols + j] != 0)
                nz++;
    for (i = 0; i < min(rows, cols); i++)
        trace += m[i * cols + i];
    assert(nz == min(rows, cols));
    assert(trace == nz);
    free(m);
}
