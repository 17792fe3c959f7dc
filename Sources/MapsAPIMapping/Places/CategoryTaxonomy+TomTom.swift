public import Places
public import MapsAPI

extension CategoryTaxonomy {
    /// The `poiCategories` listing: every category with a TomTom id, its child ids and English synonyms.
    public func tomTomCategories() -> POICategoriesResponse {
        var listed: [POICategory] = []
        for c in categories {
            guard let id = c.tomTomID, !listed.contains(where: { $0.id == id }) else { continue }
            listed.append(POICategory(id: id, name: c.name, childCategoryIds: childTomTomIDs(of: id), synonyms: c.synonyms))
        }
        return POICategoriesResponse(poiCategories: listed)
    }
}
