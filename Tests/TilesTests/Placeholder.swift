import Testing

@Test func TilesTestsBuilds() { #expect(Bool(true)) }
