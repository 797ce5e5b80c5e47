// CNSS: NSS 3 and NSPR (Debian libnss3-dev), for the C bridge beside it; Swift imports only the
// bridge's own header (CNSSBridge), never NSS's types.
#include <nss.h>
#include <cert.h>
