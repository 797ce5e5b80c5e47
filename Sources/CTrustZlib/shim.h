// zlib (https://zlib.net), the system's: Debian's zlib1g-dev, which the Swift toolchain's own
// Debian dependencies already include. TrustVectors reads BetterTLS's published gzip files with it.
#include <zlib.h>
