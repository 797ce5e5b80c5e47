// The validation time of each mbedTLS verification, per thread.
//
// mbedTLS 2.28 reads the time in exactly one place for X.509: x509_get_current_time (library/x509.c)
// calls mbedtls_time(NULL), which, without MBEDTLS_PLATFORM_TIME_ALT or _MACRO, is the C library's
// time() (include/mbedtls/platform_time.h). Debian's build leaves both off (config.h lines 228 and
// 3820 are commented out), so libmbedx509.so.1 imports `time` from glibc (`nm -D`: U time@GLIBC_2.2.5)
// and there is no mbedtls_platform_set_time to hook.
//
// So this file points libmbedx509's own reference to time() at a function of its own, and nothing
// else's: the dynamic linker resolved that reference into a slot of libmbedx509's global offset
// table (one R_X86_64_JUMP_SLOT relocation for time@GLIBC_2.2.5; `readelf -r`), and
// cmbedtls_clock_install finds that slot through libmbedx509's dynamic section (dl_iterate_phdr)
// and writes the address of cmbedtls_time into it, lifting the slot's RELRO protection for that one
// write. No symbol named `time` is defined here: every other library and the program keep glibc's
// time(), and only calls made by libmbedx509's own code reach cmbedtls_time. It answers from a
// thread-local variable while the calling thread is inside a verification that pinned it
// (cmbedtls_verify, cmbedtls_loop) and from the real clock otherwise; mbedTLS's verification is
// synchronous on its caller's thread, so the pin covers every clock read of that verification and
// nothing else.
//
// Whether the slot was found and the pin reaches mbedTLS is checked, not assumed:
// cmbedtls_clock_reaches_mbedtls installs the hook and asks mbedTLS's own
// mbedtls_x509_time_is_past/_is_future under two pinned times, and the back end refuses to evaluate
// when they do not follow the pin.
#define _GNU_SOURCE
#include "cmbedtls_clock.h"
#include "cmbedtls_bridge.h"

#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <mbedtls/x509.h>

static _Thread_local int pinned;
static _Thread_local time_t pinned_time;

static time_t cmbedtls_time(time_t *out) {
    time_t now;
    if (pinned) {
        now = pinned_time;
    } else {
        // glibc's time() on Linux reads the vDSO's coarse real-time clock; this is the same clock.
        struct timespec ts;
        if (clock_gettime(CLOCK_REALTIME_COARSE, &ts) == 0 || clock_gettime(CLOCK_REALTIME, &ts) == 0) {
            now = ts.tv_sec;
        } else {
            now = (time_t)-1;
        }
    }
    if (out) *out = now;
    return now;
}

static int installed_slots;

#if defined(__x86_64__)
#define CMBEDTLS_R_JUMP_SLOT R_X86_64_JUMP_SLOT
#define CMBEDTLS_R_GLOB_DAT R_X86_64_GLOB_DAT
#elif defined(__aarch64__)
#define CMBEDTLS_R_JUMP_SLOT R_AARCH64_JUMP_SLOT
#define CMBEDTLS_R_GLOB_DAT R_AARCH64_GLOB_DAT
#else
#error "cmbedtls_clock.c knows the GOT relocations of x86_64 and aarch64 only"
#endif

// Points every relocation of libmbedx509 that binds `time` at cmbedtls_time.
static int install_in(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size; (void)data;
    if (!info->dlpi_name || !strstr(info->dlpi_name, "libmbedx509.so")) return 0;
    const ElfW(Dyn) *dynamic = NULL;
    uintptr_t relro_start = 0, relro_end = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC) dynamic = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
        if (info->dlpi_phdr[i].p_type == PT_GNU_RELRO) {
            relro_start = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
            relro_end = relro_start + info->dlpi_phdr[i].p_memsz;
        }
    }
    if (!dynamic) return 1;
    ElfW(Addr) symtab = 0, strtab = 0, jmprel = 0, rela = 0;
    size_t jmprel_size = 0, rela_size = 0;
    for (const ElfW(Dyn) *d = dynamic; d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_SYMTAB: symtab = d->d_un.d_ptr; break;
        case DT_STRTAB: strtab = d->d_un.d_ptr; break;
        case DT_JMPREL: jmprel = d->d_un.d_ptr; break;
        case DT_PLTRELSZ: jmprel_size = d->d_un.d_val; break;
        case DT_RELA: rela = d->d_un.d_ptr; break;
        case DT_RELASZ: rela_size = d->d_un.d_val; break;
        }
    }
    // glibc relocates these addresses in a loaded object's dynamic section; an unrelocated one is
    // an offset from the load address.
    ElfW(Addr) base = info->dlpi_addr;
    if (symtab && symtab < base) symtab += base;
    if (strtab && strtab < base) strtab += base;
    if (jmprel && jmprel < base) jmprel += base;
    if (rela && rela < base) rela += base;
    if (!symtab || !strtab) return 1;
    const ElfW(Sym) *symbols = (const ElfW(Sym) *)symtab;
    const char *names = (const char *)strtab;
    const struct { ElfW(Addr) table; size_t size; } tables[2] = { { jmprel, jmprel_size }, { rela, rela_size } };
    long page = sysconf(_SC_PAGESIZE);
    for (int t = 0; t < 2; t++) {
        if (!tables[t].table) continue;
        const ElfW(Rela) *entries = (const ElfW(Rela) *)tables[t].table;
        for (size_t i = 0; i < tables[t].size / sizeof(ElfW(Rela)); i++) {
            unsigned long type = ELF64_R_TYPE(entries[i].r_info);
            if (type != CMBEDTLS_R_JUMP_SLOT && type != CMBEDTLS_R_GLOB_DAT) continue;
            const ElfW(Sym) *symbol = &symbols[ELF64_R_SYM(entries[i].r_info)];
            if (strcmp(names + symbol->st_name, "time") != 0) continue;
            void **slot = (void **)(base + entries[i].r_offset);
            uintptr_t start = (uintptr_t)slot & ~(uintptr_t)(page - 1);
            int protected = (uintptr_t)slot >= relro_start && (uintptr_t)slot < relro_end;
            if (protected && mprotect((void *)start, (size_t)page, PROT_READ | PROT_WRITE) != 0) continue;
            __atomic_store_n(slot, (void *)cmbedtls_time, __ATOMIC_SEQ_CST);
            // Back to read-only, as RELRO left it.
            if (protected) mprotect((void *)start, (size_t)page, PROT_READ);
            installed_slots++;
        }
    }
    return 1;
}

static void install(void) {
    // Resolve libmbedx509's reference once before patching it (BIND_NOW already did so for
    // Debian's build; a lazy build resolves here).
    (void)mbedtls_x509_time_is_past;
    dl_iterate_phdr(install_in, NULL);
}

int cmbedtls_clock_install(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install);
    return installed_slots;
}

cmbedtls_clock_state cmbedtls_clock_pin(time_t unix_time) {
    cmbedtls_clock_state previous = { pinned, pinned_time };
    pinned_time = unix_time;
    pinned = 1;
    return previous;
}

void cmbedtls_clock_restore(cmbedtls_clock_state previous) {
    pinned_time = previous.time;
    pinned = previous.pinned;
}

int cmbedtls_clock_reaches_mbedtls(void) {
    if (cmbedtls_clock_install() == 0) return 0;
    const mbedtls_x509_time y2000 = { 2000, 1, 1, 0, 0, 0 };
    cmbedtls_clock_state previous = cmbedtls_clock_pin(0);                    // 1970-01-01
    int past_in_1970 = mbedtls_x509_time_is_past(&y2000);
    int future_in_1970 = mbedtls_x509_time_is_future(&y2000);
    cmbedtls_clock_pin((time_t)4102444800);                                   // 2100-01-01
    int past_in_2100 = mbedtls_x509_time_is_past(&y2000);
    int future_in_2100 = mbedtls_x509_time_is_future(&y2000);
    cmbedtls_clock_restore(previous);
    return past_in_1970 == 0 && future_in_1970 == 1 && past_in_2100 == 1 && future_in_2100 == 0;
}
