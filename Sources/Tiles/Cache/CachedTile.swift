/// A tile's PNG bytes and the entity tag that names exactly those bytes.
public struct CachedTile: Sendable {
    public var png: [UInt8]
    /// A quoted HTTP entity tag, e.g. `"lz3k-1a2b-s1-15-18301-9483"`.
    public var etag: String
    /// True when the bytes came from disk rather than a fresh render.
    public var fromDisk: Bool
}
