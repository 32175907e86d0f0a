/* Wine 8 has no bcryptprimitives.dll, whose ProcessPrng Rust's std imports on Windows for its
 * random numbers (HashMap seeds). This stand-in, built by scripts/windows/test.sh and copied
 * next to each test program run under Wine, answers it with RtlGenRandom. Windows itself has
 * the real DLL: it is never shipped. */
#include <windows.h>
#include <ntsecapi.h>

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) { return RtlGenRandom(data, (ULONG)length); }
