// TomTom's search envelope written with JSONWriter: what the Codable conformances encode, byte for byte
// (keys in `.sortedKeys` order, nil optionals left out).

extension SearchResponse {
    /// The body, as JSONEncoder with sorted keys wrote it.
    public var json: [UInt8] {
        var w = JSONWriter(capacity: 8_192)
        w.beginObject()
        w.key("results")
        w.beginArray()
        for r in results { r.write(to: &w) }
        w.endArray()
        w.key("summary")
        summary.write(to: &w)
        w.endObject()
        return w.bytes
    }
}

extension SearchSummary {
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.member("fuzzyLevel", fuzzyLevel)
        if let geoBias { w.key("geoBias"); geoBias.write(to: &w) }
        w.member("numResults", numResults)
        w.member("offset", offset)
        w.member("query", query)
        w.member("queryTime", queryTime)
        w.member("queryType", queryType)
        w.member("totalResults", totalResults)
        w.endObject()
    }
}

extension SearchPosition {
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.member("lat", lat)
        w.member("lon", lon)
        w.endObject()
    }
}

extension SearchViewport {
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("btmRightPoint")
        btmRightPoint.write(to: &w)
        w.key("topLeftPoint")
        topLeftPoint.write(to: &w)
        w.endObject()
    }
}

extension SearchResult {
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.key("address")
        address.write(to: &w)
        if let addressRanges {
            w.key("addressRanges")
            w.beginObject()
            w.key("from")
            addressRanges.from.write(to: &w)
            if let left = addressRanges.rangeLeft { w.member("rangeLeft", left) }
            if let right = addressRanges.rangeRight { w.member("rangeRight", right) }
            w.key("to")
            addressRanges.to.write(to: &w)
            w.endObject()
        }
        if let boundingBox { w.key("boundingBox"); boundingBox.write(to: &w) }
        if let detourDistance { w.member("detourDistance", detourDistance) }
        if let detourOffset { w.member("detourOffset", detourOffset) }
        if let detourTime { w.member("detourTime", detourTime) }
        if let dist { w.member("dist", dist) }
        if let entityType { w.member("entityType", entityType) }
        if let entryPoints {
            w.key("entryPoints")
            w.beginArray()
            for e in entryPoints {
                w.beginObject()
                if let functions = e.functions { w.member("functions", functions) }
                w.key("position")
                e.position.write(to: &w)
                w.member("type", e.type)
                w.endObject()
            }
            w.endArray()
        }
        w.member("id", id)
        if let info { w.member("info", info) }
        if let poi { w.key("poi"); poi.write(to: &w) }
        w.key("position")
        position.write(to: &w)
        w.member("score", score)
        w.member("type", type)
        if let viewport { w.key("viewport"); viewport.write(to: &w) }
        w.endObject()
    }
}

extension SearchAddress {
    func write(to w: inout JSONWriter) {
        w.beginObject()
        if let boundingBox {
            w.key("boundingBox")
            w.beginObject()
            w.member("entity", boundingBox.entity)
            w.member("northEast", boundingBox.northEast)
            w.member("southWest", boundingBox.southWest)
            w.endObject()
        }
        if let country { w.member("country", country) }
        if let countryCode { w.member("countryCode", countryCode) }
        if let countryCodeISO3 { w.member("countryCodeISO3", countryCodeISO3) }
        if let countrySecondarySubdivision { w.member("countrySecondarySubdivision", countrySecondarySubdivision) }
        if let countrySubdivision { w.member("countrySubdivision", countrySubdivision) }
        if let countrySubdivisionName { w.member("countrySubdivisionName", countrySubdivisionName) }
        if let countryTertiarySubdivision { w.member("countryTertiarySubdivision", countryTertiarySubdivision) }
        if let extendedPostalCode { w.member("extendedPostalCode", extendedPostalCode) }
        w.member("freeformAddress", freeformAddress)
        if let localName { w.member("localName", localName) }
        if let municipality { w.member("municipality", municipality) }
        if let municipalitySubdivision { w.member("municipalitySubdivision", municipalitySubdivision) }
        if let postalCode { w.member("postalCode", postalCode) }
        if let routeNumbers { w.member("routeNumbers", routeNumbers) }
        if let speedLimit { w.member("speedLimit", speedLimit) }
        if let street { w.member("street", street) }
        if let streetName { w.member("streetName", streetName) }
        if let streetNameAndNumber { w.member("streetNameAndNumber", streetNameAndNumber) }
        if let streetNumber { w.member("streetNumber", streetNumber) }
        w.endObject()
    }
}

extension SearchPOI {
    func write(to w: inout JSONWriter) {
        w.beginObject()
        if let brands {
            w.key("brands")
            w.beginArray()
            for b in brands {
                w.beginObject()
                w.member("name", b.name)
                w.endObject()
            }
            w.endArray()
        }
        if let categories { w.member("categories", categories) }
        if let categorySet {
            w.key("categorySet")
            w.beginArray()
            for c in categorySet {
                w.beginObject()
                w.member("id", c.id)
                w.endObject()
            }
            w.endArray()
        }
        if let classifications {
            w.key("classifications")
            w.beginArray()
            for c in classifications {
                w.beginObject()
                w.member("code", c.code)
                w.key("names")
                w.beginArray()
                for n in c.names {
                    w.beginObject()
                    w.member("name", n.name)
                    w.member("nameLocale", n.nameLocale)
                    w.endObject()
                }
                w.endArray()
                w.endObject()
            }
            w.endArray()
        }
        w.member("name", name)
        if let openingHours { w.key("openingHours"); openingHours.write(to: &w) }
        if let phone { w.member("phone", phone) }
        if let timeZone {
            w.key("timeZone")
            w.beginObject()
            w.member("ianaId", timeZone.ianaId)
            w.endObject()
        }
        if let url { w.member("url", url) }
        w.endObject()
    }
}

extension SearchOpeningHours {
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.member("mode", mode)
        w.key("timeRanges")
        w.beginArray()
        for range in timeRanges {
            w.beginObject()
            w.key("endTime")
            range.endTime.write(to: &w)
            w.key("startTime")
            range.startTime.write(to: &w)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }
}

extension SearchLocalTime {
    func write(to w: inout JSONWriter) {
        w.beginObject()
        w.member("date", date)
        w.member("hour", hour)
        w.member("minute", minute)
        w.endObject()
    }
}
