/// A small command-line parser (swift-argument-parser cannot be fetched here): positional
/// arguments, `--name value`, `--name=value`, repeatable options and flags.
struct Arguments {
    private(set) var positional: [String] = []
    private var options: [String: [String]] = [:]
    private var flags: Set<String> = []
    private var consumed: Set<String> = []

    /// `valueOptions`: names that take a value; anything else starting with `--` is a flag.
    init(_ args: [String], valueOptions: Set<String>) throws(UsageError) {
        var i = 0
        while i < args.count {
            let arg = args[i]
            if arg == "--" {
                positional.append(contentsOf: args[(i + 1)...])
                break
            }
            if arg.hasPrefix("--") {
                let body = String(arg.dropFirst(2))
                if let eq = body.firstIndex(of: "=") {
                    let name = String(body[..<eq])
                    guard valueOptions.contains(name) else { throw UsageError("--\(name) does not take a value") }
                    options[name, default: []].append(String(body[body.index(after: eq)...]))
                } else if valueOptions.contains(body) {
                    guard i + 1 < args.count else { throw UsageError("--\(body) needs a value") }
                    options[body, default: []].append(args[i + 1])
                    i += 1
                } else {
                    flags.insert(body)
                }
            } else if arg.hasPrefix("-") && arg.count == 2 && arg != "-" {
                flags.insert(String(arg.dropFirst()))
            } else {
                positional.append(arg)
            }
            i += 1
        }
    }

    mutating func value(_ name: String) -> String? {
        consumed.insert(name)
        return options[name]?.last
    }

    mutating func values(_ name: String) -> [String] {
        consumed.insert(name)
        return options[name] ?? []
    }

    /// The integer value of `--name`, nil when absent; an error naming the range when it is not one in `range`.
    mutating func int(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let v = Int(text), range.contains(v) else {
            throw UsageError("--\(name) must be an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return v
    }

    mutating func flag(_ name: String) -> Bool {
        consumed.insert(name)
        return flags.contains(name)
    }

    /// Fails on options or flags that no command read (typos should not pass silently).
    func checkAllUsed() throws(UsageError) {
        for name in options.keys.sorted() where !consumed.contains(name) { throw UsageError("unknown option --\(name)") }
        for name in flags.sorted() where !consumed.contains(name) { throw UsageError("unknown flag --\(name)") }
    }
}

/// Bad command-line input: printed with the command's usage, exit code 64 (EX_USAGE).
struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}

/// A failure with a message and an exit code (argument-parser's `ExitCode` split, done by hand).
struct CommandFailure: Error, CustomStringConvertible {
    var description: String
    var exitCode: Int32
    init(_ message: String, exitCode: Int32 = 1) {
        description = message
        self.exitCode = exitCode
    }
}

/// Exit codes from sysexits.h.
enum ExitCode {
    static let answerIsNo: Int32 = 1
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let software: Int32 = 70
    static let ioError: Int32 = 74
    /// Not now: e.g. not enough memory left for an import.
    static let tempFail: Int32 = 75
}
