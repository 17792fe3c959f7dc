import Testing

@Test func HTTPServerTestsBuilds() { #expect(Bool(true)) }
