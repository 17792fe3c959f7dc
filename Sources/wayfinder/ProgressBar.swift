import Foundation

/// Progress on stderr: a redrawn bar on a terminal, plain lines (at most one per stage per 10 %)
/// when stderr is a file or pipe, so logs stay readable.
final class ProgressBar: @unchecked Sendable {
    let label: String
    let isTerminal = isatty(2) == 1
    private var lastStage = ""
    private var lastBucket = -1
    private var lastDraw = Date.distantPast
    private let started = Date()

    init(label: String) { self.label = label }

    func update(stage: String, fraction: Double) {
        let f = min(1, max(0, fraction))
        if isTerminal {
            let now = Date()
            guard stage != lastStage || f >= 1 || now.timeIntervalSince(lastDraw) > 0.05 else { return }
            lastDraw = now
            lastStage = stage
            let width = 30
            let filled = Int(f * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            let elapsed = String(format: "%5.1fs", now.timeIntervalSince(started))
            FileHandle.standardError.write("\r\u{1B}[2K\(label) \(bar) \(Int(f * 100))%  \(stage)  \(elapsed)".data(using: .utf8)!)
        } else {
            let bucket = Int(f * 10)
            guard stage != lastStage || bucket != lastBucket else { return }
            if stage != lastStage || bucket == 10 || bucket % 5 == 0 {
                FileHandle.standardError.write("\(label): \(stage) \(Int(f * 100))%\n".data(using: .utf8)!)
            }
            lastStage = stage
            lastBucket = bucket
        }
    }

    func finish() {
        if isTerminal { FileHandle.standardError.write("\r\u{1B}[2K".data(using: .utf8)!) }
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write("wayfinder: \(message)\n".data(using: .utf8)!)
}
