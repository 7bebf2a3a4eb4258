// The few things Swift cannot do itself: C library calls it cannot make
// (signal handlers, the arguments before the Swift runtime reads them) and
// one vector loop compiled for AVX2 (UTF8Blocks.c). Everything else (termios,
// poll, read, write, kill, sigprocmask) is called from Swift, in the
// SystemCalls target, which is the only target that may use this one.

#ifndef CFILENOTE_H
#define CFILENOTE_H

#include <stddef.h>

/// The version `make` linked into this build (the Makefile's VERSION_STAMP,
/// whose definition replaces the weak one of BuildVersion.c), or NULL in a
/// build made without it, such as a plain `swift build`.
const char *filenote_build_version(void);

/// The number of the program's arguments, the program's name included (argc).
int filenote_argument_count(void);

/// The program's arguments (argv), as the C library gave them to the program.
char *const *filenote_arguments(void);

/// Starts catching `signals` (at most 16): each caught signal writes its number
/// as one byte to a self-pipe, whose non-blocking, close-on-exec read end is
/// returned. Returns -1 with errno set on failure (EBUSY when signals are
/// already being caught), in which case no disposition has changed.
///
/// A signal that is ignored when this is called stays ignored, unless doing
/// nothing is already its default (SIGWINCH, SIGCONT): a shell ignores SIGINT
/// and SIGQUIT for background jobs, and `nohup` ignores SIGHUP, on purpose.
int filenote_signal_pipe_install(const int *signals, int count);

/// Gives every signal caught by `filenote_signal_pipe_install` back the
/// disposition it had before. Bytes still in the pipe are discarded by the
/// next install. Returns 0, or -1 with errno set.
int filenote_signal_pipe_uninstall(void);

/// Until `filenote_remove_on_signal_cancel`, SIGINT, SIGTERM and SIGHUP
/// (those not ignored) first remove `name` in the folder open on `folder`,
/// then end the process as the signal would. Returns 0, or -1 with errno set
/// (ENAMETOOLONG for a name of 256 bytes or more).
int filenote_remove_on_signal(int folder, const char *name);

/// Blocks those signals from now on (a save about to become permanent).
void filenote_remove_on_signal_hold(void);

/// Unblocks them again.
void filenote_remove_on_signal_release(void);

/// Gives the signals back their previous actions and unblocks them. With
/// `swallow_pending`, a signal that arrived while they were held is
/// discarded: the save it would have cancelled has happened.
void filenote_remove_on_signal_cancel(int swallow_pending);

/// Where the run of 32-byte blocks of `bytes` from `start` (at least 3) that
/// are well-formed UTF-8, given the three bytes before each, ends: the start
/// of the first block that is not, or where fewer than 32 bytes are left.
/// The bytes before `start` must be well formed (this judges a lead byte
/// through the byte after it). Returns `start` where the CPU has no AVX2:
/// the caller checks on with its own code.
size_t filenote_utf8_well_formed_blocks(const unsigned char *bytes, size_t start, size_t count);

#endif
