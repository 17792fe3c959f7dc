public import Foundation

/// The languages Wayfinder gives instructions in (TomTom's and OSRM's `language`), as base
/// tags; any region of them is accepted (`de-AT`, `pt-BR`, `nb-NO`).
public enum InstructionLanguages {
    public static let supported = ["en", "de", "fr", "it", "es", "pt", "nl", "fi", "sv", "da", "nb", "pl"]

    /// The `language` to ask for in a locale ("de-DE" for German in Germany), nil when there are
    /// no instructions in its language.
    public static func tag(for locale: Locale) -> String? {
        guard var base = locale.language.languageCode?.identifier.lowercased() else { return nil }
        if base == "no" || base == "nn" { base = "nb" }
        guard supported.contains(base) else { return nil }
        if let region = locale.region?.identifier, region.count == 2 { return "\(base)-\(region.uppercased())" }
        return base
    }
}
