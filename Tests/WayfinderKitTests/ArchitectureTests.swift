import Foundation
import Testing
import MapsTestSupport

/// The README's architecture diagram is the module graph: every module of `Sources/` is on one of
/// its rows, and imports only modules on lower rows, so the graph points one way and the picture
/// cannot drift from the code.
@Suite("README architecture") struct ArchitectureTests {
    static let root = Fixtures.packageRoot

    /// The diagram's rows, top first: the module names on each (words before the first space or `(`).
    static func rows() throws -> [[String]] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.components(separatedBy: "## Architecture").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```").dropFirst().first)
        return block.split(separator: "\n").compactMap { line -> [String]? in
            guard line.count > 17 else { return nil }
            let names = line.dropFirst(17).split(separator: "·").compactMap { part -> String? in
                let word = part.trimmingCharacters(in: .whitespaces).prefix { $0.isLetter }
                return word.isEmpty ? nil : String(word)
            }
            return names.isEmpty ? nil : names
        }
    }

    static func imports(of module: String) -> Set<String> {
        let folder = root.appendingPathComponent("Sources/\(module)")
        guard let files = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var found = Set<String>()
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = (try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)) ?? ""
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let i = words.firstIndex(of: "import"), i + 1 < words.count, words[..<i].allSatisfy({ ["public", "internal", "@preconcurrency"].contains($0) })
                else { continue }
                found.insert(String(words[i + 1]))
            }
        }
        return found
    }

    @Test func everyModuleIsDrawnAndImportsOnlyBelowItself() throws {
        let rows = try Self.rows()
        var level: [String: Int] = [:]
        for (i, row) in rows.enumerated() { for m in row { level[m] = i } }
        let modules = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path)
            .filter { !$0.hasPrefix("C") && $0 != "MapsTestSupport" && !$0.hasPrefix(".") }
        #expect(modules.count >= 25)
        for module in modules {
            let mine = try #require(level[module], "\(module) is not in the README's diagram")
            for dependency in Self.imports(of: module) {
                guard let theirs = level[dependency] else { continue }  // Foundation, Glibc, C libraries
                #expect(theirs > mine, "\(module) imports \(dependency), which is not on a lower row")
            }
        }
    }
}
