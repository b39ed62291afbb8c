/* Included first by cbam's preprocessing step. */
typedef long long __cbam_int128;
void __cbam_assert(int __cond);
