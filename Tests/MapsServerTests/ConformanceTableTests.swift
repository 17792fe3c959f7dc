import Foundation
import Testing
import MapsTestSupport
import MapsServer
import HTTPServer

/// The README's "API conformance" tables, read as they are written: one subsection per endpoint
/// (its heading the endpoint in backticks, a `Sample:` line, then a table of parameter, example,
/// status and how).
struct ConformanceTable {
    struct Row {
        var parameter: String, example: String, status: String, how: String
    }

    struct Section {
        /// The heading's text in backticks, e.g. "GET /route/v1/{profile}/{coordinates}".
        var endpoint: String
        var sample: String
        var rows: [Row]
    }

    static let statuses: Set<String> = ["supported", "differs", "ignored", "refused"]

    /// The subsections of `## API conformance` in the README.
    static func read() throws -> [Section] {
        let readme = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: "## API conformance"), "the README has no API conformance section")
        var sections: [Section] = []
        for line in lines[(start + 1)...] {
            if line.hasPrefix("## ") { break }
            if line.hasPrefix("### ") {
                sections.append(Section(endpoint: Self.code(line) ?? line, sample: "", rows: []))
            } else if line.hasPrefix("Sample:"), !sections.isEmpty {
                sections[sections.count - 1].sample = Self.code(line) ?? ""
            } else if line.hasPrefix("| `"), !sections.isEmpty {
                let cells = line.replacingOccurrences(of: "\\|", with: "\u{1}").split(separator: "|", omittingEmptySubsequences: false)
                    .map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\u{1}", with: "|") }
                guard cells.count >= 6 else { Issue.record("a row without four cells: \(line)"); continue }
                sections[sections.count - 1].rows.append(Row(parameter: Self.code(cells[1]) ?? cells[1], example: Self.code(cells[2]) ?? cells[2],
                                                             status: cells[3], how: cells[4]))
            }
        }
        return sections
    }

    /// The text between the first pair of backticks.
    static func code(_ text: String) -> String? {
        let parts = text.split(separator: "`", omittingEmptySubsequences: false)
        return parts.count >= 3 ? String(parts[1]) : nil
    }

    /// The status a supported, differing or ignored row answers: the one its "how" names as
    /// "answers NNN", else 200.
    static func expectedStatus(_ row: Row) -> Int {
        guard let range = row.how.range(of: #"answers [0-9]{3}"#, options: .regularExpression) else { return 200 }
        return Int(row.how[range].suffix(3))!
    }

    /// Sample + `parameter=example`, the example percent-encoded as a query value.
    static func target(_ section: Section, _ row: Row) -> String {
        var allowed = CharacterSet.urlQueryAllowed
        allowed.remove(charactersIn: "&=+#")
        let value = row.example.addingPercentEncoding(withAllowedCharacters: allowed) ?? row.example
        return section.sample + (section.sample.contains("?") ? "&" : "?") + "\(row.parameter)=\(value)"
    }
}

@Suite struct ConformanceTableTests {
    /// What each handler takes, as the code lists it: every name must have a row.
    static let accepted: [String: [String]] = [
        "GET /route/v1/{profile}/{coordinates}": OSRMParameters.route,
        "GET /table/v1/{profile}/{coordinates}": OSRMParameters.table,
        "GET /nearest/v1/{profile}/{coordinates}": OSRMParameters.nearest,
        "GET /match/v1/{profile}/{coordinates}": OSRMParameters.match,
        "GET /routing/1/calculateRoute/{locations}/{contentType}": TomTomParameters.calculateRoute,
    ]

    @Test func everyRowAnswersAsItsStatusSays() throws {
        let sections = try ConformanceTable.read()
        #expect(sections.count >= Self.accepted.count)
        var sent = 0
        for section in sections {
            #expect(section.sample.hasPrefix("/"), "\(section.endpoint) has no Sample line")
            #expect(!section.rows.isEmpty, "\(section.endpoint) has no rows")
            let base = try HelsinkiServer.get(section.sample)
            #expect(base.status == .ok, "the sample of \(section.endpoint) answers \(base.status)")
            for row in section.rows {
                #expect(ConformanceTable.statuses.contains(row.status), "\(section.endpoint) \(row.parameter): status \(row.status)")
                let response = try HelsinkiServer.get(ConformanceTable.target(section, row))
                let body: String
                if case .bytes(let bytes) = response.body { body = String(decoding: bytes, as: UTF8.self) } else { body = "" }
                if row.status == "refused" {
                    #expect(response.status.rawValue == 400, "\(section.endpoint) \(row.parameter)=\(row.example) is refused: \(response.status) \(body.prefix(200))")
                    #expect(body.contains(row.parameter), "the refusal of \(row.parameter) names it: \(body.prefix(200))")
                } else {
                    #expect(response.status.rawValue == ConformanceTable.expectedStatus(row),
                            "\(section.endpoint) \(row.parameter)=\(row.example): \(response.status) \(body.prefix(200))")
                }
                sent += 1
            }
        }
        #expect(sent >= 40)
    }

    @Test func everyParameterTheCodeTakesHasARow() throws {
        let sections = try ConformanceTable.read()
        for (endpoint, names) in Self.accepted {
            let section = try #require(sections.first { $0.endpoint == endpoint }, "no subsection for \(endpoint)")
            for name in names {
                let row = section.rows.first { $0.parameter == name }
                #expect(row != nil, "\(endpoint) takes \(name) but the table has no row for it")
                #expect(row?.status != "refused", "\(endpoint) takes \(name) but the table says it is refused")
            }
            for row in section.rows where row.status != "refused" {
                #expect(names.contains(row.parameter), "\(endpoint): the table says \(row.parameter) acts but the code does not take it")
            }
        }
    }
}
