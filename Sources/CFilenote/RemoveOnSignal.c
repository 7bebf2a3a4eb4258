// Removing a save's temporary file when SIGINT, SIGTERM or SIGHUP ends the
// process: the handler may only make async-signal-safe calls (unlinkat,
// sigaction, raise), so it is in C, and the name it removes is copied into
// static memory before the handler can run.

#include "CFilenote.h"
#include "CatchSignal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static const int removal_signals[] = {SIGINT, SIGTERM, SIGHUP};
enum { removal_signal_count = sizeof removal_signals / sizeof removal_signals[0] };

static volatile sig_atomic_t armed = 0;
static int removal_folder = -1;
static char removal_name[256];
static int caught[removal_signal_count];
static struct sigaction removal_previous[removal_signal_count];

static void remove_and_die(int signal_number) {
  if (armed) (void)unlinkat(removal_folder, removal_name, 0);
  armed = 0;
  // Die of the signal itself, so the parent sees what ended us (a shell
  // says 130, 143 or 129). It is blocked while this handler runs and
  // delivered, with the default action, as soon as the handler returns.
  struct sigaction fallback;
  memset(&fallback, 0, sizeof fallback);
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  (void)sigaction(signal_number, &fallback, NULL);
  (void)raise(signal_number);
}

static void removal_mask(sigset_t *set) {
  sigemptyset(set);
  for (int index = 0; index < removal_signal_count; index += 1) {
    sigaddset(set, removal_signals[index]);
  }
}

int filenote_remove_on_signal(int folder, const char *name) {
  size_t length = strlen(name);
  if (length >= sizeof removal_name) {
    errno = ENAMETOOLONG;
    return -1;
  }
  sigset_t set, previous_mask;
  removal_mask(&set);
  // Nothing may be delivered while the name and the handlers change.
  if (sigprocmask(SIG_BLOCK, &set, &previous_mask) == -1) return -1;
  memcpy(removal_name, name, length + 1);
  removal_folder = folder;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = remove_and_die;
  sigfillset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (int index = 0; index < removal_signal_count; index += 1) {
    // An ignored signal stays ignored (nohup, a background job's SIGINT).
    caught[index] =
        filenote_catch_signal(removal_signals[index], &action, &removal_previous[index]) == 1;
  }
  armed = 1;
  (void)sigprocmask(SIG_SETMASK, &previous_mask, NULL);
  return 0;
}

void filenote_remove_on_signal_hold(void) {
  sigset_t set;
  removal_mask(&set);
  (void)sigprocmask(SIG_BLOCK, &set, NULL);
}

void filenote_remove_on_signal_release(void) {
  sigset_t set;
  removal_mask(&set);
  (void)sigprocmask(SIG_UNBLOCK, &set, NULL);
}

void filenote_remove_on_signal_cancel(int swallow_pending) {
  sigset_t set;
  removal_mask(&set);
  (void)sigprocmask(SIG_BLOCK, &set, NULL);
  armed = 0;
  if (swallow_pending) {
    // The save has happened: a signal that came while it was being made
    // permanent (held) must not make the exit status say otherwise.
    struct timespec now = {0, 0};
    sigset_t pending;
    while (sigpending(&pending) == 0) {
      int any = 0;
      for (int index = 0; index < removal_signal_count; index += 1) {
        if (caught[index] && sigismember(&pending, removal_signals[index])) any = 1;
      }
      if (!any || sigtimedwait(&set, NULL, &now) == -1) break;
    }
  }
  for (int index = 0; index < removal_signal_count; index += 1) {
    if (caught[index]) (void)sigaction(removal_signals[index], &removal_previous[index], NULL);
    caught[index] = 0;
  }
  (void)sigprocmask(SIG_UNBLOCK, &set, NULL);
}
