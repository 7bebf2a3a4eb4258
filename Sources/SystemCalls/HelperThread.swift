import Glibc

/// A second thread that runs one job at a time for the thread that made it:
/// `start(_:)` hands a job over, `wait()` returns once it has run. A large
/// save checks the UTF-8 of one piece of its input there while it writes or
/// compares the piece before (see `IncomingText.read`).
///
/// The thread runs with every signal blocked, so a signal is always
/// handled by the main thread, whose mask is what holds signals back while
/// a save is made permanent (`RemovalOnSignal.hold()`). Until `end()`, the
/// owner must not touch what a started job touches, nor start another.
public final class HelperThread: @unchecked Sendable {
  private var thread = pthread_t()
  private let jobReady = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
  private let jobDone = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
  private var job: (() -> Void)?
  private var isRunningJob = false
  private var isEnded = false

  /// Starts the thread, which waits for a job.
  public init() throws(Errno) {
    sem_init(jobReady, 0, 0)
    sem_init(jobDone, 0, 0)
    var all = sigset_t()
    sigfillset(&all)
    var previous = sigset_t()
    // The new thread inherits this mask: every signal blocked.
    pthread_sigmask(SIG_SETMASK, &all, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    let context = Unmanaged.passUnretained(self).toOpaque()
    do {
      try nothingOrErrno {
        pthread_create(
          &thread, nil,
          { context in
            let helper = Unmanaged<HelperThread>.fromOpaque(context!).takeUnretainedValue()
            helper.serve()
            return nil
          }, context)
      }
    } catch {
      isEnded = true  // nothing to end or join; deinit frees the rest
      throw error
    }
  }

  deinit {
    end()
    sem_destroy(jobReady)
    sem_destroy(jobDone)
    jobReady.deallocate()
    jobDone.deallocate()
  }

  /// Hands `job` to the thread; call `wait()` before the next.
  public func start(_ job: @escaping () -> Void) {
    precondition(!isRunningJob && !isEnded, "one job at a time")
    self.job = job
    isRunningJob = true
    sem_post(jobReady)
  }

  /// Returns once the job last started has run (at once when none runs).
  public func wait() {
    guard isRunningJob else { return }
    while sem_wait(jobDone) != 0 {}  // EINTR: wait on
    isRunningJob = false
    job = nil
  }

  /// Waits for the job that runs, then ends the thread. Calling it again does nothing.
  public func end() {
    guard !isEnded else { return }
    wait()
    isEnded = true
    sem_post(jobReady)
    pthread_join(thread, nil)
  }

  private func serve() {
    while true {
      while sem_wait(jobReady) != 0 {}
      guard let job else { return }
      job()
      sem_post(jobDone)
    }
  }
}
