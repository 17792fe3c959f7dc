/// Anything that yields OSM data as blocks: a `.osm.pbf` file, or blocks built in memory for
/// drawn test maps. The extractor reads every source the same way.
public protocol OSMSource {
    func forEachBlock(content: OSMContent, progress: ((Int, Int) -> Void)?, _ body: (OSMBlock) throws -> Void) throws
}

extension PBFReader: OSMSource {}

/// Blocks held in memory.
public struct InMemoryOSMSource: OSMSource {
    public var blocks: [OSMBlock]

    public init(_ blocks: [OSMBlock]) { self.blocks = blocks }

    public func forEachBlock(content: OSMContent, progress: ((Int, Int) -> Void)?, _ body: (OSMBlock) throws -> Void) throws {
        for (i, block) in blocks.enumerated() {
            try body(block)
            progress?(i + 1, blocks.count)
        }
    }
}
