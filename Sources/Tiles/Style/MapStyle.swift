public import BaseMap

/// The palette and sizes of the base map: a muted, light look (in the spirit of CARTO Positron and
/// Voyager) so that a coloured route line and markers drawn on top stand out.
public struct MapStyle: Sendable {
    /// Changes whenever the look changes; part of every cached tile's key.
    public var version: String
    public var land: RGBColor
    public var areas: [BaseMapKind: AreaStyle]
    public var lines: [BaseMapKind: LineStyle]
    public var labels: [BaseMapKind: LabelStyle]
    public var bridgeCasing: RGBColor
    public var onewayArrow: RGBColor
    /// Road names use the line's `labelMinZoom` and this style's colours.
    public var roadLabel: LabelStyle
    public var fontFamily: String

    public var water: RGBColor { areas[.water]?.fill ?? land }

    public static let standard: MapStyle = {
        let water = RGBColor(hex: 0xB8D6E6)
        let areas: [BaseMapKind: AreaStyle] = [
            .residential: AreaStyle(fill: RGBColor(hex: 0xEFEDE8), minZoom: 10),
            .commercial: AreaStyle(fill: RGBColor(hex: 0xF1EAE6), minZoom: 12),
            .industrial: AreaStyle(fill: RGBColor(hex: 0xEDE9EB), minZoom: 12),
            .farmland: AreaStyle(fill: RGBColor(hex: 0xF0F0E1), minZoom: 10),
            .cemetery: AreaStyle(fill: RGBColor(hex: 0xDAE6D4), minZoom: 12),
            .grass: AreaStyle(fill: RGBColor(hex: 0xE0EED5), minZoom: 12),
            .scrub: AreaStyle(fill: RGBColor(hex: 0xDDE9CF), minZoom: 12),
            .park: AreaStyle(fill: RGBColor(hex: 0xD7EBCB), minZoom: 11),
            .forest: AreaStyle(fill: RGBColor(hex: 0xCDE4C0), minZoom: 9),
            .wetland: AreaStyle(fill: RGBColor(hex: 0xD9E8E2), minZoom: 12),
            .beach: AreaStyle(fill: RGBColor(hex: 0xF5EDD3), minZoom: 12),
            .pitch: AreaStyle(fill: RGBColor(hex: 0xCFE8CC), outline: RGBColor(hex: 0xBBDBB7), outlineMinZoom: 16, minZoom: 14),
            .sea: AreaStyle(fill: water, minZoom: 0),
            .water: AreaStyle(fill: water, minZoom: 6),
            .pier: AreaStyle(fill: RGBColor(hex: 0xF4F2ED), outline: RGBColor(hex: 0xD8D3CB), outlineMinZoom: 16, minZoom: 13),
            .pedestrianArea: AreaStyle(fill: RGBColor(hex: 0xF9F8F6), outline: RGBColor(hex: 0xDDD8D0), outlineMinZoom: 16, minZoom: 14),
            .building: AreaStyle(fill: RGBColor(hex: 0xE2DED7), outline: RGBColor(hex: 0xD1CBC2), outlineMinZoom: 16, minZoom: 15),
        ]
        let casing = ZoomCurve([(11, 0.35), (13, 0.6), (15, 0.9), (17, 1.1), (19, 1.5)])
        let white = RGBColor(hex: 0xFFFFFF)
        let lines: [BaseMapKind: LineStyle] = [
            .motorway: LineStyle(fill: RGBColor(hex: 0xF6D39F), casing: RGBColor(hex: 0xD7AB6E),
                                 widthPixels: ZoomCurve([(5, 0.7), (8, 1.3), (10, 2.0), (12, 3.0), (14, 5.2), (15, 7), (16, 9.5), (17, 13.5), (18, 21), (20, 60)]),
                                 casingWidthPixels: casing, thinWidthPixels: 1.6, thinColor: RGBColor(hex: 0xE9B977), minZoom: 5, labelMinZoom: 13),
            .trunk: LineStyle(fill: RGBColor(hex: 0xF9E0B2), casing: RGBColor(hex: 0xD9B783),
                              widthPixels: ZoomCurve([(6, 0.6), (8, 1.2), (10, 1.9), (12, 2.9), (14, 5), (15, 6.8), (16, 9.2), (17, 13), (18, 20), (20, 56)]),
                              casingWidthPixels: casing, thinWidthPixels: 1.6, thinColor: RGBColor(hex: 0xEBC892), minZoom: 6, labelMinZoom: 13),
            .primary: LineStyle(fill: RGBColor(hex: 0xFCEDC8), casing: RGBColor(hex: 0xD6C29C),
                                widthPixels: ZoomCurve([(8, 0.6), (10, 1.5), (12, 2.6), (14, 4.4), (15, 5.8), (16, 8.2), (17, 11.8), (18, 18), (20, 54)]),
                                casingWidthPixels: casing, thinWidthPixels: 1.6, thinColor: RGBColor(hex: 0xE5CF9E), minZoom: 8, labelMinZoom: 14),
            .secondary: LineStyle(fill: white, casing: RGBColor(hex: 0xCFC7BB),
                                  widthPixels: ZoomCurve([(10, 0.8), (12, 2.1), (14, 3.9), (15, 5.2), (16, 7.6), (17, 11), (18, 17), (20, 52)]),
                                  casingWidthPixels: casing, thinColor: RGBColor(hex: 0xD9D2C6), minZoom: 10, labelMinZoom: 14),
            .tertiary: LineStyle(fill: white, casing: RGBColor(hex: 0xD2CBC0),
                                 widthPixels: ZoomCurve([(11, 0.7), (12, 1.5), (14, 3.3), (15, 4.6), (16, 6.8), (17, 10.2), (18, 15.5), (20, 48)]),
                                 casingWidthPixels: casing, thinColor: RGBColor(hex: 0xDAD4C9), minZoom: 11, labelMinZoom: 15),
            .minorRoad: LineStyle(fill: white, casing: RGBColor(hex: 0xD6D0C6),
                                  widthPixels: ZoomCurve([(12, 0.6), (13, 1.0), (14, 2.2), (15, 3.4), (16, 5.4), (17, 8.8), (18, 13.5), (20, 42)]),
                                  casingWidthPixels: casing, thinColor: RGBColor(hex: 0xDCD6CD), minZoom: 12, labelMinZoom: 15),
            .pedestrian: LineStyle(fill: RGBColor(hex: 0xF8F7F4), casing: RGBColor(hex: 0xD8D2C8),
                                   widthPixels: ZoomCurve([(14, 1.2), (15, 2.4), (16, 4), (17, 6.5), (18, 10), (20, 30)]),
                                   casingWidthPixels: casing, thinColor: RGBColor(hex: 0xDDD8D0), minZoom: 14, labelMinZoom: 16),
            .service: LineStyle(fill: white, casing: RGBColor(hex: 0xDAD5CC),
                                widthPixels: ZoomCurve([(14, 0.9), (15, 1.6), (16, 2.6), (17, 4.4), (18, 7.5), (20, 24)]),
                                casingWidthPixels: casing, thinColor: RGBColor(hex: 0xDFDAD2), minZoom: 14, labelMinZoom: 17),
            .track: LineStyle(fill: RGBColor(hex: 0xC7B596), casing: white,
                              widthPixels: ZoomCurve([(14, 0.8), (16, 1.3), (18, 2.2), (20, 4)]),
                              thinWidthPixels: 0, minZoom: 14, dashPixels: [4, 2], labelMinZoom: 17),
            .path: LineStyle(fill: RGBColor(hex: 0xBFB1A2), casing: RGBColor(hex: 0xFAF9F7),
                             widthPixels: ZoomCurve([(14, 0.7), (15, 0.9), (16, 1.2), (17, 1.5), (18, 2), (20, 3.5)]),
                             casingWidthPixels: ZoomCurve([(16, 0), (17, 0.8), (18, 1.2)]), thinWidthPixels: 0, minZoom: 15,
                             dashPixels: [2.2, 1.6], labelMinZoom: 17),
            .steps: LineStyle(fill: RGBColor(hex: 0xB8A999), casing: RGBColor(hex: 0xFAF9F7),
                              widthPixels: ZoomCurve([(15, 1.6), (16, 2.4), (18, 4), (20, 8)]),
                              casingWidthPixels: ZoomCurve([(16, 0.6), (18, 1)]), thinWidthPixels: 0, minZoom: 15,
                              dashPixels: [1, 1], labelMinZoom: .max),
            .rail: LineStyle(fill: RGBColor(hex: 0xFFFFFF), casing: RGBColor(hex: 0xC0BBB5),
                             widthPixels: ZoomCurve([(10, 0.6), (12, 1.0), (14, 1.6), (16, 2.2), (18, 3.2), (20, 5)]),
                             casingWidthPixels: ZoomCurve([(14, 0.8), (16, 0.9), (18, 1.2)]), thinWidthPixels: 1.5,
                             thinColor: RGBColor(hex: 0xBFBAB4), minZoom: 10, dashPixels: [5, 5]),
            .tram: LineStyle(fill: RGBColor(hex: 0xADA7A0), casing: RGBColor(hex: 0xADA7A0),
                             widthPixels: ZoomCurve([(13, 0.5), (15, 0.9), (17, 1.3), (19, 2)]),
                             thinWidthPixels: 0, minZoom: 13),
            .subway: LineStyle(fill: RGBColor(hex: 0xBDB8B2), casing: RGBColor(hex: 0xBDB8B2),
                               widthPixels: ZoomCurve([(13, 0.5), (15, 0.9), (17, 1.3), (19, 2)]),
                               thinWidthPixels: 0, minZoom: 13, dashPixels: [3, 3]),
            .river: LineStyle(fill: water, casing: water,
                              widthPixels: ZoomCurve([(8, 0.8), (12, 1.8), (14, 3.5), (16, 7), (18, 14), (20, 40)]),
                              thinWidthPixels: 0, minZoom: 8),
            .stream: LineStyle(fill: water, casing: water,
                               widthPixels: ZoomCurve([(13, 0.5), (15, 1.0), (17, 1.8), (19, 3)]),
                               thinWidthPixels: 0, minZoom: 13),
            .pierLine: LineStyle(fill: RGBColor(hex: 0xF4F2ED), casing: RGBColor(hex: 0xD8D3CB),
                                 widthPixels: ZoomCurve([(14, 1.5), (16, 4), (18, 10), (20, 30)]),
                                 thinWidthPixels: 0, minZoom: 14),
        ]
        let place = RGBColor(hex: 0x45413C), district = RGBColor(hex: 0x857D74)
        let labels: [BaseMapKind: LabelStyle] = [
            .city: LabelStyle(color: RGBColor(hex: 0x3A3733), sizePixels: ZoomCurve([(4, 11), (8, 13), (12, 16), (14, 18)]), bold: true, minZoom: 4, maxZoom: 15),
            .town: LabelStyle(color: place, sizePixels: ZoomCurve([(8, 11), (12, 14), (14, 16)]), bold: true, minZoom: 8, maxZoom: 16),
            .village: LabelStyle(color: place, sizePixels: ZoomCurve([(11, 11), (14, 13), (16, 14)]), minZoom: 11, maxZoom: 17),
            .suburb: LabelStyle(color: district, sizePixels: ZoomCurve([(12, 10), (15, 12), (17, 13)]), uppercase: true, letterSpacingPixels: 1.2, minZoom: 12, maxZoom: 17),
            .quarter: LabelStyle(color: district, sizePixels: ZoomCurve([(13, 10), (16, 11.5)]), uppercase: true, letterSpacingPixels: 1.0, minZoom: 14, maxZoom: 18),
            .neighbourhood: LabelStyle(color: district, sizePixels: ZoomCurve([(14, 9.5), (17, 11)]), uppercase: true, letterSpacingPixels: 0.8, minZoom: 15, maxZoom: 19),
            .hamlet: LabelStyle(color: place, sizePixels: ZoomCurve([(13, 10), (16, 12)]), minZoom: 13, maxZoom: 18),
            .island: LabelStyle(color: place, sizePixels: ZoomCurve([(13, 10), (16, 12)]), minZoom: 13, maxZoom: 18),
        ]
        return MapStyle(version: "1", land: RGBColor(hex: 0xF6F4EF), areas: areas, lines: lines, labels: labels,
                        bridgeCasing: RGBColor(hex: 0xB3AA9E), onewayArrow: RGBColor(hex: 0xB5AC9F),
                        roadLabel: LabelStyle(color: RGBColor(hex: 0x625C55), sizePixels: ZoomCurve([(13, 9.5), (15, 10), (16, 11), (18, 12.5)]), minZoom: 13),
                        fontFamily: "DejaVu Sans")
    }()
}
