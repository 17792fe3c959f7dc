import Testing

@Test func PlacesTestsBuilds() { #expect(Bool(true)) }
