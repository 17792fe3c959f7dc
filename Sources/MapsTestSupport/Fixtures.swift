public import Foundation

/// Where the test data lives: the samples that `scripts/setup.sh` caches, and the extracts
/// in `../shared/data` that CI has beside the checkout (absent on a user's machine, so tests
/// that need them are reported as skipped).
public enum Fixtures {
    /// The package root, found from this file's own path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static var cacheFolder: URL {
        if let env = ProcessInfo.processInfo.environment["WAYFINDER_CACHE"] { return URL(fileURLWithPath: env) }
        return packageRoot.appendingPathComponent(".cache")
    }

    public static var helsinki: String { sample("helsinki") }
    public static var monaco: String { sample("monaco") }
    public static var helsinkiAvailable: Bool { FileManager.default.fileExists(atPath: helsinki) }
    public static var monacoAvailable: Bool { FileManager.default.fileExists(atPath: monaco) }

    static func sample(_ name: String) -> String {
        cacheFolder.appendingPathComponent("samples/\(name).osm.pbf").path
    }

    /// `../shared/data` beside the checkout, when present.
    public static var sharedData: URL? {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    public static var sharedBench: URL? {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/bench")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// Every `.osm.pbf` in `../shared/data`, sorted by size (smallest first).
    public static var sharedExtracts: [URL] {
        guard let dir = sharedData,
              let names = try? FileManager.default.contentsOfDirectory(atPath: dir.path) else { return [] }
        return names.filter { $0.hasSuffix(".osm.pbf") }.map { dir.appendingPathComponent($0) }
            .sorted { (size($0) ?? 0) < (size($1) ?? 0) }
    }

    public static func size(_ url: URL) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? nil
    }

    /// A fresh, empty temporary directory inside this process's scratch folder, which goes when the
    /// process exits.
    public static func temporaryDirectory(_ label: String = "wayfinder-test") -> URL {
        let url = scratchRoot.appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// One folder per test process for every scratch directory, so that thousands of test runs do not
    /// fill the temporary directory: removed at exit, and the folders of processes that died without
    /// exiting are removed when the next one starts.
    public static let scratchRoot: URL = {
        let temp = FileManager.default.temporaryDirectory
        let prefix = "wayfinder-tests-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: temp.path)) ?? [] where name.hasPrefix(prefix) {
            if let pid = Int32(name.dropFirst(prefix.count)), kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(at: temp.appendingPathComponent(name))
            }
        }
        let root = temp.appendingPathComponent("\(prefix)\(getpid())")
        try? FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: Fixtures.scratchRoot) }
        return root
    }()
}
