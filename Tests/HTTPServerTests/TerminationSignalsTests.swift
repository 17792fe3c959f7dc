import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import HTTPServer

@Suite("TerminationSignals")
struct TerminationSignalsTests {
    @Test func waitReturnsTheBlockedSignalSentToThisThread() {
        // SIGUSR2, aimed at this thread only, so the test runner's own SIGINT/SIGTERM stay untouched.
        let signals = TerminationSignals.block([SIGUSR2])
        defer { signals.unblock() }
        pthread_kill(pthread_self(), SIGUSR2)    // stays pending: blocked, not delivered
        #expect(signals.wait() == SIGUSR2)
    }
}
