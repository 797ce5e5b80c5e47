#include <openssl/x509.h>
