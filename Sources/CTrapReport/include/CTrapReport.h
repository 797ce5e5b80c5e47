#ifndef CTRAPREPORT_H
#define CTRAPREPORT_H

// Names the evaluation a thread was running when the process dies of a signal (a Swift trap is
// SIGILL or SIGTRAP, a C crash SIGSEGV, SIGBUS or SIGFPE, abort() SIGABRT): each thread keeps a
// label, and a handler writes the dying thread's label to standard error with write(2) (async-
// signal-safe), then hands the signal to the handler that was there before (Swift's backtracer,
// or the default action), so the crash still happens and still prints its backtrace.

// Installs the handlers once per process; later calls do nothing.
void ctrapreport_install(void);
// Sets this thread's label (copied, truncated to 511 bytes); NULL clears it.
void ctrapreport_set(const char *label);

#endif
