// collectcall::webhooks brings libcrypto: this calls into it.
#include <openssl/crypto.h>

int main() {
    return OpenSSL_version_num() == 0 ? 1 : 0;
}
