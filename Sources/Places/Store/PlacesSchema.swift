/// The layout of `places.sqlite`. Coordinates are fixed-point degrees × 10⁷ (as GeoCore's `Coordinate`).
public enum PlacesSchema {
    /// Bumped whenever the layout changes; a store refuses files of another version.
    public static let formatVersion = 3

    static let create = """
    CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE category(code INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE);
    CREATE TABLE place(
        id INTEGER PRIMARY KEY,
        kind INTEGER NOT NULL,
        osm_type INTEGER NOT NULL,
        osm_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        lat_e7 INTEGER NOT NULL,
        lon_e7 INTEGER NOT NULL,
        min_lat_e7 INTEGER, min_lon_e7 INTEGER, max_lat_e7 INTEGER, max_lon_e7 INTEGER,
        housenumber TEXT, street TEXT, postcode TEXT, city TEXT, district TEXT, country_code TEXT,
        categories TEXT,
        osm_key TEXT NOT NULL, osm_value TEXT NOT NULL,
        phone TEXT, website TEXT, opening_hours TEXT, brand TEXT, cuisine TEXT,
        other_names TEXT,
        importance REAL NOT NULL,
        flags INTEGER NOT NULL DEFAULT 0,
        county TEXT, state TEXT,
        street_names TEXT,
        extra_tags TEXT
    );
    CREATE TABLE place_category(code INTEGER NOT NULL, place_id INTEGER NOT NULL, PRIMARY KEY(code, place_id)) WITHOUT ROWID;
    CREATE VIRTUAL TABLE place_fts USING fts5(name, context, keywords, content='',
        tokenize='unicode61 remove_diacritics 2', prefix='2 3');
    CREATE VIRTUAL TABLE poi_rtree USING rtree_i32(id, min_lat, max_lat, min_lon, max_lon);
    CREATE VIRTUAL TABLE address_rtree USING rtree_i32(id, min_lat, max_lat, min_lon, max_lon);
    CREATE TABLE place_shape(id INTEGER PRIMARY KEY, shape BLOB NOT NULL);
    CREATE VIRTUAL TABLE street_rtree USING rtree_i32(id, min_lat, max_lat, min_lon, max_lon, +street_id, +road, +points);
    CREATE TABLE boundary(id INTEGER PRIMARY KEY, kind INTEGER NOT NULL, admin_level INTEGER, name TEXT NOT NULL,
        other_names TEXT, postcode TEXT, country_code TEXT, osm_id INTEGER NOT NULL, area REAL NOT NULL, shape BLOB NOT NULL);
    CREATE VIRTUAL TABLE boundary_rtree USING rtree_i32(id, min_lat, max_lat, min_lon, max_lon);
    CREATE TABLE vocab(id INTEGER PRIMARY KEY, term TEXT NOT NULL UNIQUE, docs INTEGER NOT NULL, name_docs INTEGER NOT NULL);
    CREATE TABLE vocab_gram(gram INTEGER NOT NULL, length INTEGER NOT NULL, term_id INTEGER NOT NULL,
        PRIMARY KEY(gram, length, term_id)) WITHOUT ROWID;
    """

    /// Created after the bulk insert.
    static let indexes = """
    CREATE INDEX place_osm ON place(osm_type, osm_id);
    CREATE INDEX place_street ON place(street) WHERE kind = 0;
    """

    /// FTS5 column weights for bm25: name, context (street, district, city, postcode), keywords (categories, cuisine, brand).
    static let bm25Weights = "10.0, 2.0, 3.0"
}
