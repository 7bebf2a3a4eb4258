// Installing a handler the way both of filenote's catchers do (the signal
// pipe in CFilenote.c, the removal of a save's temporary file in
// RemoveOnSignal.c). Not part of the target's interface: Swift never calls it.

#ifndef CATCH_SIGNAL_H
#define CATCH_SIGNAL_H

#include <signal.h>

/// Installs `action` for `signal_number`, keeping the action it replaces in
/// `previous`, unless the signal is ignored and doing nothing is not already
/// its default: a shell ignores SIGINT and SIGQUIT for background jobs, and
/// `nohup` ignores SIGHUP, on purpose, while an ignored SIGWINCH or SIGCONT
/// says nothing. Returns 1 when installed, 0 when left as it was, -1 with
/// errno set on failure (nothing changed).
int filenote_catch_signal(int signal_number, const struct sigaction *action,
                          struct sigaction *previous);

#endif
