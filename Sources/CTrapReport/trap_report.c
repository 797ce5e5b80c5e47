#include "CTrapReport.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static _Thread_local char label[512];
static const int signals[] = {SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE};
#define SIGNAL_COUNT (sizeof(signals) / sizeof(signals[0]))
static struct sigaction previous[SIGNAL_COUNT];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void report(int signal, siginfo_t *info, void *context) {
    if (label[0] != 0) {
        static const char prefix[] = "\ntrust-harness: the process died (signal ";
        static const char middle[] = ") while evaluating ";
        char number[8];
        int length = 0;
        int value = signal;
        char reversed[8];
        do { reversed[length++] = (char)('0' + value % 10); value /= 10; } while (value > 0 && length < 7);
        for (int i = 0; i < length; i++) number[i] = reversed[length - 1 - i];
        ssize_t ignored = write(2, prefix, sizeof(prefix) - 1);
        ignored = write(2, number, (size_t)length);
        ignored = write(2, middle, sizeof(middle) - 1);
        ignored = write(2, label, strnlen(label, sizeof(label)));
        ignored = write(2, "\n", 1);
        (void)ignored;
    }
    for (unsigned i = 0; i < SIGNAL_COUNT; i++) {
        if (signals[i] != signal) continue;
        struct sigaction *before = &previous[i];
        if (before->sa_flags & SA_SIGINFO) {
            if (before->sa_sigaction != NULL) { before->sa_sigaction(signal, info, context); return; }
        } else if (before->sa_handler != SIG_DFL && before->sa_handler != SIG_IGN && before->sa_handler != NULL) {
            before->sa_handler(signal);
            return;
        }
        // The default action: restore it and let the signal happen again on return.
        struct sigaction fallback;
        memset(&fallback, 0, sizeof(fallback));
        fallback.sa_handler = SIG_DFL;
        sigemptyset(&fallback.sa_mask);
        sigaction(signal, &fallback, NULL);
        raise(signal);
        return;
    }
}

static void install(void) {
    for (unsigned i = 0; i < SIGNAL_COUNT; i++) {
        struct sigaction action;
        memset(&action, 0, sizeof(action));
        action.sa_sigaction = report;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        sigaction(signals[i], &action, &previous[i]);
    }
}

void ctrapreport_install(void) { pthread_once(&once, install); }

void ctrapreport_set(const char *text) {
    if (text == NULL) { label[0] = 0; return; }
    size_t length = strnlen(text, sizeof(label) - 1);
    memcpy(label, text, length);
    label[length] = 0;
}
