import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The import's memory, stage by stage: a sampler thread reads the resident set every 10 ms, and
/// each stage's peak is the process's high-water mark (VmHWM) when the stage raised it, which is
/// exact, or else the highest sample. The sampler also enforces a memory limit: past it, the
/// `exceeded` handler runs once (it cleans up and ends the process with a clear message before
/// the kernel's OOM killer would end it with none).
final class MemoryMeter: @unchecked Sendable {
    private let lock = NSLock()
    private var stagePeak = 0
    private var stageHighWaterStart = 0
    private var stopped = false
    private var limit: Int
    private var exceeded: (@Sendable (_ residentBytes: Int) -> Void)?
    private var thread: Thread?

    /// - Parameters:
    ///   - limitBytes: resident memory past which `exceeded` runs (0: no limit).
    init(limitBytes: Int, exceeded: (@Sendable (_ residentBytes: Int) -> Void)?) {
        limit = limitBytes
        self.exceeded = exceeded
        let thread = Thread { [weak self] in
            while let self, self.sample() { usleep(10_000) }
        }
        thread.name = "wayfinder.memory"
        thread.stackSize = 1 << 16
        self.thread = thread
        thread.start()
    }

    deinit { stop() }

    func stop() {
        lock.lock()
        stopped = true
        lock.unlock()
    }

    /// Turns the limit off (the commit must not be interrupted halfway).
    func disarm() {
        lock.lock()
        exceeded = nil
        lock.unlock()
    }

    /// One sample; false once stopped. The limit is on anonymous memory: mapped file pages
    /// (a graph read back from the page cache) can always be dropped by the kernel.
    private func sample() -> Bool {
        let (rss, anonymous) = Self.resident()
        lock.lock()
        if stopped { lock.unlock(); return false }
        stagePeak = max(stagePeak, rss)
        var fire: (@Sendable (Int) -> Void)?
        if limit > 0 && anonymous > limit, let handler = exceeded {
            fire = handler
            exceeded = nil
        }
        lock.unlock()
        fire?(anonymous)
        return true
    }

    /// Starts measuring a new stage.
    func beginStage() {
        let hwm = Self.highWaterMark()
        lock.lock()
        stagePeak = Self.residentBytes()
        stageHighWaterStart = hwm
        lock.unlock()
    }

    /// The peak resident bytes since `beginStage`.
    func endStage() -> Int {
        let hwm = Self.highWaterMark()
        let now = Self.residentBytes()
        lock.lock()
        defer { lock.unlock() }
        return hwm > stageHighWaterStart ? hwm : max(stagePeak, now)
    }

    /// The resident set now (`/proc/self/statm`).
    static func residentBytes() -> Int { resident().total }

    /// The resident set and its anonymous part (resident less file-backed and shared pages).
    static func resident() -> (total: Int, anonymous: Int) {
        guard let text = read("/proc/self/statm") else { return (0, 0) }
        let fields = text.split(separator: " ")
        guard fields.count > 2, let pages = Int(fields[1]), let shared = Int(fields[2]) else { return (0, 0) }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        return (pages * page, max(0, pages - shared) * page)
    }

    /// The process's peak resident set so far (VmHWM).
    static func highWaterMark() -> Int { statusField("VmHWM") }

    /// A `kB` field of `/proc/self/status`, in bytes.
    static func statusField(_ name: String) -> Int {
        guard let text = read("/proc/self/status") else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let number = line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) } ?? 0
            return number * 1024
        }
        return 0
    }

    /// Memory the system can still give (MemAvailable), or nil when unknown.
    static func availableBytes() -> Int? {
        guard let text = read("/proc/meminfo") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            return line.dropFirst(13).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    /// A small file of /proc, read with plain POSIX calls (no Foundation allocation per sample).
    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<n], as: UTF8.self)
    }
}
