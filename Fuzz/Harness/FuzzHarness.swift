#if canImport(Glibc)
import Glibc
#endif

/// What one harness call found. `problems` lists broken promises (an index out of its table, a
/// 5xx for bad input, a parse that does not round-trip); a crash, hang or runaway allocation is
/// caught by libFuzzer and AddressSanitizer instead. Empty `problems` means the input is handled.
public protocol FuzzOutcome: Sendable {
    var problems: [String] { get }
    /// One line for the replay runner.
    var summary: String { get }
}

/// The fuzz entry points: one function per fuzz target, shared by the libFuzzer executables in
/// `Fuzz/Targets` and by `FuzzRegressionTests`, which replays every saved input through them.
public enum FuzzHarness {
    /// The names of the fuzz targets, as used for `Fuzz/corpus/<name>` and `Fuzz/regressions/<name>`.
    public static let targets = ["pbf", "csv", "request", "parsers"]

    /// Runs the harness named `target` on `bytes`.
    public static func run(_ target: String, _ bytes: UnsafeRawBufferPointer) -> (any FuzzOutcome)? {
        switch target {
        case "pbf": return pbf(bytes)
        case "csv": return csv(bytes)
        case "request": return request(bytes)
        case "parsers": return parsers(bytes)
        default: return nil
        }
    }

    /// The body of `LLVMFuzzerTestOneInput`: runs `harness` and aborts (so libFuzzer saves the
    /// input as a crash) when it reports a problem.
    public static func fuzzOne<O: FuzzOutcome>(_ data: UnsafeRawPointer?, _ size: Int,
                                               _ harness: (UnsafeRawBufferPointer) -> O) -> CInt {
        let outcome = harness(UnsafeRawBufferPointer(start: size > 0 ? data : nil, count: size))
        if !outcome.problems.isEmpty {
            let message = Array(("fuzz harness found a problem:\n" + outcome.problems.map { "  - \($0)\n" }.joined()).utf8)
            _ = message.withUnsafeBytes { Glibc.write(2, $0.baseAddress, $0.count) }
            abort()
        }
        return 0
    }

    /// `main` of a fuzz target built without libFuzzer: runs every file named on the command line
    /// (or every file in a named folder) through `harness` and prints one line each; exits 1 when
    /// any input has a problem. Handy for replaying a crash in a debug build.
    public static func replayMain<O: FuzzOutcome>(_ name: String, _ harness: (UnsafeRawBufferPointer) -> O) -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.isEmpty || arguments.contains("--help") {
            print("""
            usage: \(name) FILE|FOLDER...
            Runs each input through the \(name) harness (the libFuzzer build of this target is made by
            scripts/fuzz.sh, which passes -sanitize=fuzzer,address and -DWAYFINDER_FUZZING).
            """)
            exit(arguments.isEmpty ? 64 : 0)
        }
        var failed = false
        for path in arguments.flatMap(FuzzInputs.files(at:)) {
            guard let bytes = FuzzInputs.read(path) else {
                print("\(path): cannot read")
                failed = true
                continue
            }
            let outcome = bytes.withUnsafeBytes { harness($0) }
            print("\(path): \(outcome.summary)")
            for problem in outcome.problems { print("  PROBLEM: \(problem)") }
            failed = failed || !outcome.problems.isEmpty
        }
        exit(failed ? 1 : 0)
    }
}

/// Reading saved inputs without Foundation.
public enum FuzzInputs {
    /// `path` itself when it is a file, else the regular files directly inside it, sorted.
    public static func files(at path: String) -> [String] {
        var st = stat()
        guard stat(path, &st) == 0 else { return [path] }
        guard (st.st_mode & S_IFMT) == S_IFDIR else { return [path] }
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix(".") else { continue }
            var fileStat = stat()
            let full = path + "/" + name
            if stat(full, &fileStat) == 0 && (fileStat.st_mode & S_IFMT) == S_IFREG { names.append(full) }
        }
        return names.sorted()
    }

    public static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { return nil }
            if n == 0 { return bytes }
            bytes.append(contentsOf: chunk[..<n])
        }
    }

    /// Writes `bytes` to a new file (in `$WAYFINDER_FUZZ_TMP`, else memory-backed /dev/shm when
    /// there is one); the caller unlinks it.
    static func writeTemporary(_ bytes: UnsafeRawBufferPointer, suffix: String) -> String? {
        let preferred = getenv("WAYFINDER_FUZZ_TMP") == nil ? ["/dev/shm"] : []
        for folder in preferred + [FuzzInputs.temporaryFolder] {
            var template = Array("\(folder)/wayfinder-fuzz-XXXXXX\(suffix)".utf8CString)
            let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) }
            guard fd >= 0 else { continue }
            defer { close(fd) }
            let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            var done = 0
            while done < bytes.count {
                let n = Glibc.write(fd, bytes.baseAddress! + done, bytes.count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { unlink(path); return nil }
                done += n
            }
            return path
        }
        return nil
    }

    /// `$WAYFINDER_FUZZ_TMP`, `$TMPDIR` or /tmp.
    static var temporaryFolder: String {
        for name in ["WAYFINDER_FUZZ_TMP", "TMPDIR"] {
            if let value = getenv(name), value.pointee != 0 { return String(cString: value) }
        }
        return "/tmp"
    }
}
