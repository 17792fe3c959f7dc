/// The answer to a search: a page of results and what the engine made of the query.
public struct PlaceSearchResponse: Sendable, Equatable {
    public var results: [PlaceResult]
    /// Matches found before paging (capped by the candidate limit).
    public var totalResults: Int
    /// 1 when the words matched as typed; 2 when typo correction was needed.
    public var fuzzyLevel: Int
    /// The query as searched: folded words, corrections in place ("mannerheimintie 5").
    public var normalizedQuery: String
    /// Categories the text named ("gas station" → fuel), whose POIs were included.
    public var matchedCategories: [String]

    public init(results: [PlaceResult], totalResults: Int, fuzzyLevel: Int, normalizedQuery: String, matchedCategories: [String] = []) {
        self.results = results
        self.totalResults = totalResults
        self.fuzzyLevel = fuzzyLevel
        self.normalizedQuery = normalizedQuery
        self.matchedCategories = matchedCategories
    }

    public static let empty = PlaceSearchResponse(results: [], totalResults: 0, fuzzyLevel: 1, normalizedQuery: "")
}
