// Nominatim's shapes written with JSONWriter: what their Codable conformances encode, keys in the
// order JSONEncoder's `.sortedKeys` gives, but an address's parts most specific first, as Nominatim
// writes them.

extension NominatimPlace {
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        if let address { w.key("address"); address.write(to: &w) }
        w.member("addresstype", addresstype)
        w.member("boundingbox", boundingbox)
        w.member(format == .json ? "class" : "category", osmClass)
        w.member("display_name", displayName)
        w.member("extratags", extratags)
        w.member("importance", importance)
        w.member("lat", lat)
        w.member("licence", licence)
        w.member("lon", lon)
        w.member("name", name)
        w.member("namedetails", namedetails)
        w.member("osm_id", osmID)
        w.member("osm_type", osmType)
        w.member("place_id", placeID)
        w.member("place_rank", placeRank)
        w.member("type", type)
        w.endObject()
    }
}

extension NominatimAddress {
    /// One member a label, where it first appears, with the value of its last part (the value a client
    /// decoding JSONEncoder's object saw).
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        for (i, part) in parts.enumerated() where !parts[..<i].contains(where: { $0.label == part.label }) {
            w.member(part.label, parts.last { $0.label == part.label }!.value)
        }
        w.endObject()
    }
}

extension NominatimFeatureCollection {
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("features")
        w.beginArray()
        for feature in features { feature.write(to: &w) }
        w.endArray()
        w.member("licence", licence)
        w.member("type", type)
        w.endObject()
    }
}

extension NominatimFeature {
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.member("bbox", bbox)
        w.key("geometry")
        w.beginObject()
        w.member("coordinates", geometry.coordinates)
        w.member("type", geometry.type)
        w.endObject()
        w.key("properties")
        properties.write(to: &w)
        w.member("type", type)
        w.endObject()
    }
}

extension NominatimFeatureProperties {
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        if let address { w.key("address"); address.write(to: &w) }
        w.member("addresstype", addresstype)
        w.member("category", category)
        w.member("display_name", displayName)
        w.member("extratags", extratags)
        w.member("importance", importance)
        w.member("name", name)
        w.member("namedetails", namedetails)
        w.member("osm_id", osmID)
        w.member("osm_type", osmType)
        w.member("place_id", placeID)
        w.member("place_rank", placeRank)
        w.member("type", type)
        w.endObject()
    }
}

extension NominatimNotFound {
    public func write(to w: inout JSONWriter) {
        w.beginObject()
        w.member("error", error)
        w.endObject()
    }
}
