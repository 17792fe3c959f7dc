/// `{"poiCategories": [ … ]}`.
public struct POICategoriesResponse: Codable, Sendable {
    public var poiCategories: [POICategory]
    public init(poiCategories: [POICategory]) { self.poiCategories = poiCategories }
}

public struct POICategory: Codable, Sendable, Equatable {
    public var id: Int
    public var name: String
    public var childCategoryIds: [Int]
    public var synonyms: [String]
    public init(id: Int, name: String, childCategoryIds: [Int], synonyms: [String]) {
        self.id = id
        self.name = name
        self.childCategoryIds = childCategoryIds
        self.synonyms = synonyms
    }
}
