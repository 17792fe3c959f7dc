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
            w.member("rangeLeft", addressRanges.rangeLeft)
            w.member("rangeRight", addressRanges.rangeRight)
            w.key("to")
            addressRanges.to.write(to: &w)
            w.endObject()
        }
        if let boundingBox { w.key("boundingBox"); boundingBox.write(to: &w) }
        w.member("detourDistance", detourDistance)
        w.member("detourOffset", detourOffset)
        w.member("detourTime", detourTime)
        w.member("dist", dist)
        w.member("entityType", entityType)
        if let entryPoints {
            w.key("entryPoints")
            w.beginArray()
            for e in entryPoints {
                w.beginObject()
                w.member("functions", e.functions)
                w.key("position")
                e.position.write(to: &w)
                w.member("type", e.type)
                w.endObject()
            }
            w.endArray()
        }
        w.member("id", id)
        w.member("info", info)
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
        w.member("country", country)
        w.member("countryCode", countryCode)
        w.member("countryCodeISO3", countryCodeISO3)
        w.member("countrySecondarySubdivision", countrySecondarySubdivision)
        w.member("countrySubdivision", countrySubdivision)
        w.member("countrySubdivisionName", countrySubdivisionName)
        w.member("countryTertiarySubdivision", countryTertiarySubdivision)
        w.member("extendedPostalCode", extendedPostalCode)
        w.member("freeformAddress", freeformAddress)
        w.member("localName", localName)
        w.member("municipality", municipality)
        w.member("municipalitySubdivision", municipalitySubdivision)
        w.member("postalCode", postalCode)
        w.member("routeNumbers", routeNumbers)
        w.member("speedLimit", speedLimit)
        w.member("street", street)
        w.member("streetName", streetName)
        w.member("streetNameAndNumber", streetNameAndNumber)
        w.member("streetNumber", streetNumber)
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
        w.member("categories", categories)
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
        w.member("phone", phone)
        if let timeZone {
            w.key("timeZone")
            w.beginObject()
            w.member("ianaId", timeZone.ianaId)
            w.endObject()
        }
        w.member("url", url)
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
