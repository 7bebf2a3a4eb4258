#include "CatchSignal.h"

#include <stddef.h>

static int is_ignored_by_default(int signal_number) {
  return signal_number == SIGWINCH || signal_number == SIGCONT;
}

int filenote_catch_signal(int signal_number, const struct sigaction *action,
                          struct sigaction *previous) {
  struct sigaction current;
  if (sigaction(signal_number, NULL, &current) == -1) return -1;
  if (!(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_IGN &&
      !is_ignored_by_default(signal_number)) {
    return 0;
  }
  return sigaction(signal_number, action, previous) == -1 ? -1 : 1;
}
