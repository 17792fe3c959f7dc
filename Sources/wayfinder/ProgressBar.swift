import Foundation

/// Progress on stderr. On a terminal, a stage that has run for a second gets a redrawn bar with
/// its step and an estimate of the time left, and every finished stage leaves one line; when
/// stderr is a file or pipe, only the one line per finished stage is written, so logs stay short.
final class ProgressBar: @unchecked Sendable {
    let label: String
    let isTerminal = isatty(2) == 1
    private var stage = ""
    private var step = ""
    private var stageStart = Date()
    private var stepStart = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(label: String) { self.label = label }

    /// A step of a stage and how far it is (0...1).
    func update(stage: String, step: String, fraction: Double) {
        let now = Date()
        if stage != self.stage {
            self.stage = stage
            stageStart = now
        }
        if step != self.step {
            self.step = step
            stepStart = now
        }
        guard isTerminal, now.timeIntervalSince(stageStart) >= 1, now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        let f = min(1, max(0, fraction))
        let width = 30
        let filled = Int(f * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let stepElapsed = now.timeIntervalSince(stepStart)
        let eta = f > 0.02 && f < 1 ? "ETA \(Self.duration(stepElapsed / f * (1 - f)))" : "ETA …"
        let name = step.isEmpty || step == stage ? stage : "\(stage) · \(step)"
        write("\r\u{1B}[2K\(label) \(bar) \(String(format: "%3d", Int(f * 100)))%  \(eta)  \(name)  \(Self.duration(now.timeIntervalSince(stageStart)))")
        drawn = true
    }

    /// A finished stage: one line with its time and the most memory it held.
    func finished(stage: String, seconds: Double, peakBytes: Int) {
        let line = "\(label): \(stage) \(String(format: "%.2f", seconds)) s, peak \(peakBytes >> 20) MB"
        write(isTerminal ? "\r\u{1B}[2K\(line)\n" : "\(line)\n")
        drawn = false
    }

    func finish() {
        if isTerminal && drawn { write("\r\u{1B}[2K") }
        drawn = false
    }

    private func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s < 60 ? "\(s) s" : s < 3600 ? "\(s / 60) min \(s % 60) s" : "\(s / 3600) h \(s % 3600 / 60) min"
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write("wayfinder: \(message)\n".data(using: .utf8)!)
}
