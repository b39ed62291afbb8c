// expect: FALSE line=23
// why: the identity has min(rows, cols) ones, but the check assumes one per row, so a tall matrix (rows > cols, e.g. rows=2, cols=1) fails the count.
#include <assert.h>
#include <stdlib.h>

void identity_matrix(int rows, int cols)
{
    int *m;
    int i, j, nz = 0;

    if (rows < 1 || rows > 4 || cols < 1 || cols > 4)
        return;
    m = calloc((size_t)rows * (size_t)cols, sizeof *m);
    if (m == NULL)
        return;
    for (i = 0; i < rows && i < cols; i++)
        m[i * cols + i] = 1;
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++)
            if (m[i * cols + j] != 0)
                nz++;
    free(m);
    assert(nz == rows);
}
