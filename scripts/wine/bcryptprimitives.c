/* ProcessPrng, the one export of Windows' bcryptprimitives.dll that Rust's standard library
 * (1.78+) imports for random bytes. Windows 10+ ships the DLL; Wine before 9.0 does not, so
 * scripts/check-dist.sh builds this shim (x86_64-w64-mingw32-gcc) and puts it next to the
 * binary it runs under such a Wine. It draws from RtlGenRandom, which Wine implements. It is
 * never shipped. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length); /* RtlGenRandom, advapi32 */

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
