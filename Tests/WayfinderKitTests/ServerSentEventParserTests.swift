import Testing
import WayfinderKit

/// The WHATWG `text/event-stream` grammar (API-SHAPES §5), fed whole and in every split.
@Suite("Server-Sent Events parser")
struct ServerSentEventParserTests {
    /// Parses `text` fed in one piece, and checks that every two-piece split gives the same events.
    static func parse(_ text: String, lastEventID: String = "") -> [ServerSentEvent] {
        let bytes = Array(text.utf8)
        var whole = ServerSentEventParser(lastEventID: lastEventID)
        let expected = whole.parse(bytes)
        for cut in 0...bytes.count {
            var split = ServerSentEventParser(lastEventID: lastEventID)
            let events = split.parse(bytes[..<cut]) + split.parse(bytes[cut...])
            #expect(events == expected, "split at byte \(cut)")
        }
        var byteByByte = ServerSentEventParser(lastEventID: lastEventID)
        #expect(bytes.flatMap { byteByByte.parse([$0]) } == expected, "one byte at a time")
        return expected
    }

    @Test func theExampleOfAPIShapes() {
        let events = Self.parse(": wayfinder stream open\nretry: 5000\n\nid: 42\nevent: route-progress\ndata: {\"remainingMeters\":1200,\"etaSeconds\":95}\n\ndata: line one\ndata: line two\n\n")
        #expect(events == [
            ServerSentEvent(type: "route-progress", data: "{\"remainingMeters\":1200,\"etaSeconds\":95}", lastEventID: "42"),
            ServerSentEvent(type: "message", data: "line one\nline two", lastEventID: "42"),
        ])
    }

    @Test("CRLF, LF and CR all end lines, also when CR and LF arrive in different chunks")
    func lineEnds() {
        #expect(Self.parse("data: a\r\n\r\ndata: b\r\rdata: c\n\n").map(\.data) == ["a", "b", "c"])
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array("data: x\r".utf8)).isEmpty)
        // The LF completes the CRLF: not a blank line, so nothing is dispatched yet.
        #expect(parser.parse(Array("\n".utf8)).isEmpty)
        #expect(parser.parse(Array("\r\n".utf8)).map(\.data) == ["x"])
    }

    @Test func aLeadingByteOrderMarkIsSkippedOnce() {
        #expect(Self.parse("\u{FEFF}data: a\n\n").map(\.data) == ["a"])
        // Only at the very start: a BOM later is part of the field name, which is then unknown.
        #expect(Self.parse("data: a\n\n\u{FEFF}data: b\n\n").map(\.data) == ["a"])
    }

    @Test func fieldsWithoutColonOrSpaceAndUnknownFields() {
        // "data" alone is a data field with an empty value; only one space after the colon is stripped.
        #expect(Self.parse("data\ndata:x\ndata:  y\nfoo: bar\n\n").map(\.data) == ["\nx\n y"])
        // An empty data line still dispatches an event with empty data.
        #expect(Self.parse("data:\n\n").map(\.data) == [""])
    }

    @Test func blocksWithoutDataDispatchNothingButStillSetTheID() {
        let events = Self.parse("id: 7\n\nevent: ping\n\n: comment\n\ndata: after\n\n")
        #expect(events == [ServerSentEvent(type: "message", data: "after", lastEventID: "7")])
    }

    @Test func theEventTypeResetsAfterEachEvent() {
        #expect(Self.parse("event: plan\ndata: 1\n\ndata: 2\n\n").map(\.type) == ["plan", "message"])
    }

    @Test func idRulesNULIsIgnoredEmptyResets() {
        #expect(Self.parse("id: 1\ndata: a\n\nid: 2\u{0}x\ndata: b\n\nid\ndata: c\n\n").map(\.lastEventID) == ["1", "1", ""])
        #expect(Self.parse("data: a\n\n", lastEventID: "41").map(\.lastEventID) == ["41"])
    }

    @Test func retryTakesASCIIDigitsOnly() {
        var parser = ServerSentEventParser()
        _ = parser.parse(Array("retry: 250\n\n".utf8))
        #expect(parser.retryMilliseconds == 250)
        _ = parser.parse(Array("retry: 1.5\nretry: -3\nretry: x\nretry:\n\n".utf8))
        #expect(parser.retryMilliseconds == 250)
    }

    @Test func anUnfinishedBlockAtTheEndIsDropped() {
        var parser = ServerSentEventParser()
        #expect(parser.parse(Array("id: 3\ndata: complete\n\ndata: partial\n".utf8)).map(\.data) == ["complete"])
        parser.reset()
        #expect(parser.parse(Array("\n".utf8)).isEmpty)
        #expect(parser.lastEventID == "3")
    }

    @Test func invalidUTF8BecomesReplacementCharacters() {
        var parser = ServerSentEventParser()
        let events = parser.parse(Array("data: ".utf8) + [0xFF, 0x41] + Array("\n\n".utf8))
        #expect(events.map(\.data) == ["\u{FFFD}A"])
    }
}
