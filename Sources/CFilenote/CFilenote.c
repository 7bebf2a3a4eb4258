// Why these are in C:
// - A signal handler may only make async-signal-safe calls. A Swift closure
//   used as a handler could retain, release or allocate, which can deadlock
//   when the signal lands inside malloc. This handler is one write(2).

#define _GNU_SOURCE  // pipe2
#include "CFilenote.h"
#include "CatchSignal.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

// The C library hands every constructor the program's arguments. Taking
// them here spares a short run the Swift runtime's `CommandLine` set-up,
// whose code lies in two more 64 KiB blocks of the static executable (see
// CONTRIBUTING.md, Hot path).
static int saved_argument_count;
static char **saved_arguments;

__attribute__((constructor)) static void save_arguments(int argc, char **argv, char **envp) {
  (void)envp;
  saved_argument_count = argc;
  saved_arguments = argv;
}

int filenote_argument_count(void) { return saved_argument_count; }

char *const *filenote_arguments(void) { return saved_arguments; }

enum { maximum_signals = 16 };

// The self-pipe is created once and never closed: a handler running on another
// thread while we uninstall could otherwise write into a closed descriptor, or
// worse, into an unrelated file that was just given the same number.
static int pipe_ends[2] = {-1, -1};

static int installed = 0;
static int installed_count = 0;
static int installed_signals[maximum_signals];
static struct sigaction previous_actions[maximum_signals];

static void note_signal(int signal_number) {
  int saved_errno = errno;  // the interrupted code may be about to read errno
  unsigned char byte = (unsigned char)signal_number;
  // A full pipe drops the byte: the reader has thousands of wake-ups pending.
  (void)write(pipe_ends[1], &byte, 1);
  errno = saved_errno;
}

// Returns 0, or -1 with errno set by the first failure (every action is
// restored that can be).
static int restore_previous_actions(void) {
  int result = 0;
  int first_errno = 0;
  while (installed_count > 0) {
    installed_count -= 1;
    int signal_number = installed_signals[installed_count];
    if (sigaction(signal_number, &previous_actions[installed_count], NULL) == -1 && result == 0) {
      result = -1;
      first_errno = errno;
    }
  }
  if (result == -1) errno = first_errno;
  return result;
}

int filenote_signal_pipe_install(const int *signals, int count) {
  if (installed) {
    errno = EBUSY;
    return -1;
  }
  if (count < 0 || count > maximum_signals) {
    errno = EINVAL;
    return -1;
  }
  if (pipe_ends[0] == -1) {
    // Non-blocking on both ends: the handler must never block, and the reader
    // drains the pipe until EAGAIN.
    if (pipe2(pipe_ends, O_NONBLOCK | O_CLOEXEC) == -1) return -1;
  } else {
    // Forget signals caught during an earlier installation.
    unsigned char stale[64];
    while (read(pipe_ends[0], stale, sizeof stale) > 0) {
    }
  }

  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = note_signal;
  sigemptyset(&action.sa_mask);
  // The poll in Terminal.read wakes up through the pipe whatever this flag
  // says (poll is never restarted); SA_RESTART spares every other blocking
  // call in the process (a file write, an fsync) an EINTR it does not expect.
  action.sa_flags = SA_RESTART;

  installed_count = 0;
  for (int index = 0; index < count; index += 1) {
    int signal_number = signals[index];
    int caught = filenote_catch_signal(signal_number, &action, &previous_actions[installed_count]);
    if (caught == -1) goto failed;
    if (caught == 0) continue;
    installed_signals[installed_count] = signal_number;
    installed_count += 1;
  }
  installed = 1;
  return pipe_ends[0];

failed: {
  int saved_errno = errno;
  (void)restore_previous_actions();
  errno = saved_errno;
  return -1;
}
}

int filenote_signal_pipe_uninstall(void) {
  if (!installed) return 0;
  installed = 0;
  return restore_previous_actions();
}
