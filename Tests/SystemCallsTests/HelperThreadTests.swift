import Glibc
import SystemCalls
import Testing

@Suite struct HelperThreadTests {
  /// What a job saw, written on the helper and read after `wait()`.
  final class Record: @unchecked Sendable {
    var jobs: [Int] = []
    var thread = pthread_t()
    var blockedSignals: [Int32] = []
  }

  @Test func eachJobHasRunWhenWaitReturnsOnAnotherThreadInOrder() throws {
    let helper = try HelperThread()
    let record = Record()
    for index in 0..<100 {
      helper.start { record.jobs.append(index) }
      helper.wait()
      #expect(record.jobs.count == index + 1)
    }
    #expect(record.jobs == Array(0..<100))
    helper.start { record.thread = pthread_self() }
    helper.wait()
    #expect(pthread_equal(record.thread, pthread_self()) == 0)
    helper.end()
    helper.end()
  }

  @Test func theHelperRunsWithEverySignalBlockedAndLeavesTheCallersMaskAlone() throws {
    var before = sigset_t()
    pthread_sigmask(SIG_SETMASK, nil, &before)
    let helper = try HelperThread()
    var after = sigset_t()
    pthread_sigmask(SIG_SETMASK, nil, &after)
    let record = Record()
    helper.start {
      var mask = sigset_t()
      pthread_sigmask(SIG_SETMASK, nil, &mask)
      record.blockedSignals = [SIGINT, SIGTERM, SIGHUP, SIGCHLD].filter {
        sigismember(&mask, $0) == 1
      }
    }
    helper.wait()
    #expect(record.blockedSignals == [SIGINT, SIGTERM, SIGHUP, SIGCHLD])
    for signal in [SIGINT, SIGTERM, SIGHUP, SIGCHLD] {
      #expect(sigismember(&before, signal) == sigismember(&after, signal))
    }
  }

  @Test func waitWithNoJobAndEndWhileAJobRunsBothReturn() throws {
    let helper = try HelperThread()
    helper.wait()
    let record = Record()
    helper.start {
      usleep(20_000)
      record.jobs.append(1)
    }
    helper.end()
    #expect(record.jobs == [1], "end waits for the job that runs")
  }
}
